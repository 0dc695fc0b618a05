/* commands -- the subcommands, one file each (cmd_<name>.c).
 *
 * Each takes the argv that follows the command name (argv[0] is the
 * command) and returns an exit status from cli.h.
 */
#ifndef TALLY_COMMANDS_H
#define TALLY_COMMANDS_H

int cmd_demo(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_print(int argc, char **argv);
int cmd_eval(int argc, char **argv);
int cmd_lang(int argc, char **argv);
int cmd_hierarchy(int argc, char **argv);
int cmd_search(int argc, char **argv);
int cmd_enum(int argc, char **argv);

#endif
