// Dyck-1: balanced parentheses (accepts the empty word).  Yang & Chiang
// 2024, "Counting Like Transformers", the Dyck-1 program; the same program
// is examples/dyck1_yc24.cr of coli-saar/c-rasp.  Depth 2.
opens = #"("
closes = #")"
too_many_closes = opens < closes
never_too_many = #too_many_closes == 0
balanced = opens == closes
dyck1 = never_too_many && balanced
