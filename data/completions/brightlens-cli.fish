# fish completion for brightlens-cli
#
# SPDX-License-Identifier: GPL-3.0-or-later

set -l commands info export heap lines diff check record help
set -l metrics cpu wall calls alloc-bytes alloc-count free-bytes free-count live-bytes live-count samples time-ns weight

complete -c brightlens-cli -f -n "not __fish_seen_subcommand_from $commands" -a info -d 'Summarise a profile or session'
complete -c brightlens-cli -f -n "not __fish_seen_subcommand_from $commands" -a export -d 'Convert a profile or session'
complete -c brightlens-cli -f -n "not __fish_seen_subcommand_from $commands" -a heap -d 'Analyse a Perfetto trace’s heap graphs'
complete -c brightlens-cli -n '__fish_seen_subcommand_from heap' -s n -l top -x -d 'List at most N types and objects'
complete -c brightlens-cli -n '__fish_seen_subcommand_from heap' -l hide-global -d 'Hide leak cycles through $m.global'
complete -c brightlens-cli -f -n "not __fish_seen_subcommand_from $commands" -a lines -d 'Rank a profile’s source lines'
complete -c brightlens-cli -f -n "not __fish_seen_subcommand_from $commands" -a diff -d 'Compare two profiles or two sessions'
complete -c brightlens-cli -f -n "not __fish_seen_subcommand_from $commands" -a check -d 'Check a session or profile against limits'
complete -c brightlens-cli -f -n "not __fish_seen_subcommand_from $commands" -a record -d 'Record a running app from a Roku device'
complete -c brightlens-cli -n '__fish_seen_subcommand_from record' -l duration -x -d 'Stop after S seconds'
complete -c brightlens-cli -n '__fish_seen_subcommand_from record' -l interval -x -d 'Poll the resources every MS milliseconds'
complete -c brightlens-cli -n '__fish_seen_subcommand_from record' -l profile -d 'Record the BrightScript profile'
complete -c brightlens-cli -n '__fish_seen_subcommand_from record' -l resources -d 'Record the resource use'
complete -c brightlens-cli -n '__fish_seen_subcommand_from record' -l trace -d 'Record a Perfetto trace'
complete -c brightlens-cli -n '__fish_seen_subcommand_from record' -l ecp-port -x -d 'The device’s ECP port'
complete -c brightlens-cli -n '__fish_seen_subcommand_from record' -l profiler-port -x -d 'The profiler’s port'
complete -c brightlens-cli -n '__fish_seen_subcommand_from record' -l console-port -x -d 'The debug console’s port'
complete -c brightlens-cli -f -n "not __fish_seen_subcommand_from $commands" -a help -d 'Show the commands'
complete -c brightlens-cli -n "not __fish_seen_subcommand_from $commands" -l version -d 'Print the version'

# every command
complete -c brightlens-cli -n "__fish_seen_subcommand_from $commands" -s h -l help -d 'Show the options'
complete -c brightlens-cli -n "__fish_seen_subcommand_from $commands" -s o -l output -r -F -d 'Write to OUT instead of standard output'

complete -c brightlens-cli -n '__fish_seen_subcommand_from info heap lines diff' -l json -d 'Print one JSON object'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export lines diff' -s m -l metric -x -a "$metrics" -d 'Metric'

complete -c brightlens-cli -n '__fish_seen_subcommand_from export lines diff' -l focus -x -d 'Keep only the calls of function F, as roots'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export lines diff' -l focus-path -x -d 'Keep only the subtree at THREAD;A;B'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export lines diff' -l merge -x -d 'Merge function F into its callers'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export lines diff' -l drop -x -d 'Remove function F and what it calls'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export lines diff' -l hide -x -d 'Merge frames whose name or file match a glob'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export lines diff' -l collapse-recursion -d 'Merge recursive calls into the outer call'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export lines diff' -l merge-threads -d 'Merge threads that differ by an instance number'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export lines diff' -l merge-all-threads -d 'Merge every thread into one'

complete -c brightlens-cli -n '__fish_seen_subcommand_from export' -s f -l format -x -a 'folded speedscope svg csv' -d 'Output format'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export' -l from -x -d 'Time range start (ns)'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export' -l to -x -d 'Time range end (ns)'
complete -c brightlens-cli -n '__fish_seen_subcommand_from lines' -s n -l top -x -d 'Print only the N hottest lines'
complete -c brightlens-cli -n '__fish_seen_subcommand_from diff' -s f -l format -x -a 'folded table json svg' -d 'Output format'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export diff' -l width -x -d 'SVG: image width in pixels'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export diff' -l title -x -d 'SVG: title of the image'
complete -c brightlens-cli -n '__fish_seen_subcommand_from export' -l thread -x -d 'SVG: only the threads of this name'
complete -c brightlens-cli -n '__fish_seen_subcommand_from diff' -s n -l normalized -d 'Compare shares of each run’s total'
complete -c brightlens-cli -n '__fish_seen_subcommand_from diff' -l by -x -a 'self total' -d 'Rank functions by the change of'
complete -c brightlens-cli -n '__fish_seen_subcommand_from diff' -l absolute -d 'Compare the values themselves'
complete -c brightlens-cli -n '__fish_seen_subcommand_from diff' -s t -l threshold -x -d 'Changes below PCT % of the total are neutral'
complete -c brightlens-cli -n '__fish_seen_subcommand_from diff' -l min-change -x -d 'Changes below AMOUNT are neutral'
complete -c brightlens-cli -n '__fish_seen_subcommand_from diff' -l sort -x -a 'change growth name' -d 'Table order'
complete -c brightlens-cli -n '__fish_seen_subcommand_from diff' -l fail-above -x -d 'Exit 3 when the total grew by more than PCT %'
complete -c brightlens-cli -n '__fish_seen_subcommand_from diff' -l function -x -d 'With --fail-above, measure this function'

complete -c brightlens-cli -n '__fish_seen_subcommand_from check' -l max-foreground-fraction -x -d 'Peak memory as a fraction of the foreground limit'
complete -c brightlens-cli -n '__fish_seen_subcommand_from check' -l max-memory-growth -x -d 'Memory growth in bytes per minute'
complete -c brightlens-cli -n '__fish_seen_subcommand_from check' -l min-fps -x -d 'Lowest frame rate'
complete -c brightlens-cli -n '__fish_seen_subcommand_from check' -l max-launch-ms -x -d 'Longest launch in milliseconds'
complete -c brightlens-cli -n '__fish_seen_subcommand_from check' -l max-total -x -a "$metrics=" -d '[FUNCTION:]METRIC=LIMIT on the total'
complete -c brightlens-cli -n '__fish_seen_subcommand_from check' -l max-self -x -a "$metrics=" -d '[FUNCTION:]METRIC=LIMIT on the self value'
complete -c brightlens-cli -n '__fish_seen_subcommand_from check' -l max-live-bytes -x -d 'Memory still allocated at the end'
complete -c brightlens-cli -n '__fish_seen_subcommand_from check' -s f -l format -x -a 'text json junit' -d 'Report format'
