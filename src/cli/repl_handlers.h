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

#include "cli/repl.h"

void repl_cmd_word(Repl *r, char *arg);
void repl_cmd_examples(Repl *r, char *arg);
void repl_cmd_eval(Repl *r, char *arg);
void repl_cmd_trace(Repl *r, char *arg);

void repl_cmd_info(Repl *r, char *arg);
void repl_cmd_tl(Repl *r, char *arg);
void repl_cmd_core(Repl *r, char *arg);
void repl_cmd_crasp(Repl *r, char *arg);
void repl_cmd_dot(Repl *r, char *arg);
void repl_cmd_alphabet(Repl *r, char *arg);

void repl_cmd_lang(Repl *r, char *arg);
void repl_cmd_equiv(Repl *r, char *arg);
void repl_cmd_check(Repl *r, char *arg);
void repl_cmd_search(Repl *r, char *arg);

void repl_cmd_defs(Repl *r, char *arg);
void repl_cmd_save(Repl *r, char *arg);
void repl_cmd_load(Repl *r, char *arg);
void repl_cmd_reset(Repl *r, char *arg);

#endif
