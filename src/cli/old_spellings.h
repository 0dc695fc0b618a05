/* old_spellings -- option names that were renamed so that one name means
 * one thing in every command ("--max-length" is always "all words up to
 * N"; "--max-formulas" is always "at most N formulas"): the old
 * spellings still work, rewritten to the new ones before the command
 * parses its options, with one warning per spelling.
 *
 * old_spellings_rewrite(command, argc, argv) rewrites argv[1..argc-1] in
 * place (up to a "--" argument); the strings it puts there are static or
 * malloc'd once and live until exit.
 */
#ifndef TALLY_OLD_SPELLINGS_H
#define TALLY_OLD_SPELLINGS_H

void old_spellings_rewrite(const char *command, int argc, char **argv);

#endif
