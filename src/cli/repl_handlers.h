/* repl_handlers -- the handlers of the REPL's : commands, one a command,
 * each taking the session and the text after the command's name (its
 * own copy, which it may cut up).  repl_commands.c holds their table
 * (names, arguments, summaries) and runs them; they are defined by kind,
 * each kind in a file of its own:
 *   repl_words.c   :word :examples :eval :trace
 *   repl_show.c    :info :tl :core :crasp :dot :alphabet
 *   repl_decide.c  :lang :equiv :check :search (the ones run apart)
 *   repl_defs.c    :defs :save :load :reset
 *
 * Ownership: a handler borrows the session (repl_session.h) and frees
 * what it makes.
 */
#ifndef TALLY_REPL_HANDLERS_H
#define TALLY_REPL_HANDLERS_H

/* the session (repl_session.h); not repl.h, the lines' module, which
 * hands : lines down to the table */
struct Repl;

void repl_cmd_word(struct Repl *r, char *arg);
void repl_cmd_examples(struct Repl *r, char *arg);
void repl_cmd_eval(struct Repl *r, char *arg);
void repl_cmd_trace(struct Repl *r, char *arg);

void repl_cmd_info(struct Repl *r, char *arg);
void repl_cmd_tl(struct Repl *r, char *arg);
void repl_cmd_core(struct Repl *r, char *arg);
void repl_cmd_crasp(struct Repl *r, char *arg);
void repl_cmd_dot(struct Repl *r, char *arg);
void repl_cmd_alphabet(struct Repl *r, char *arg);

void repl_cmd_lang(struct Repl *r, char *arg);
void repl_cmd_equiv(struct Repl *r, char *arg);
void repl_cmd_check(struct Repl *r, char *arg);
void repl_cmd_search(struct Repl *r, char *arg);

void repl_cmd_defs(struct Repl *r, char *arg);
void repl_cmd_save(struct Repl *r, char *arg);
void repl_cmd_load(struct Repl *r, char *arg);
void repl_cmd_reset(struct Repl *r, char *arg);

#endif
