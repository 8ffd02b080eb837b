# bash completion for brightlens-cli
#
# SPDX-License-Identifier: GPL-3.0-or-later

_brightlens_cli()
{
    local cur prev cmd opts
    local transforms="--focus --focus-path --merge --drop --hide --collapse-recursion --merge-threads --merge-all-threads"
    local commands="info export heap lines diff check record help"
    local metrics="cpu wall calls alloc-bytes alloc-count free-bytes free-count live-bytes live-count samples time-ns weight"

    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}

    if [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
        return 0
    fi
    cmd=${COMP_WORDS[1]}

    # the values of options that take one
    case $cmd:$prev in
        *:-m|*:--metric)
            COMPREPLY=($(compgen -W "$metrics" -- "$cur"))
            return 0 ;;
        export:-f|export:--format)
            COMPREPLY=($(compgen -W "folded speedscope svg csv" -- "$cur"))
            return 0 ;;
        diff:-f|diff:--format)
            COMPREPLY=($(compgen -W "folded table json svg" -- "$cur"))
            return 0 ;;
        check:-f|check:--format)
            COMPREPLY=($(compgen -W "text json junit" -- "$cur"))
            return 0 ;;
        diff:--by)
            COMPREPLY=($(compgen -W "self total" -- "$cur"))
            return 0 ;;
        diff:--sort)
            COMPREPLY=($(compgen -W "change growth name" -- "$cur"))
            return 0 ;;
        check:--max-total|check:--max-self)
            # METRIC=LIMIT or FUNCTION:METRIC=LIMIT
            local m words=()
            for m in $metrics; do words+=("$m="); done
            COMPREPLY=($(compgen -W "${words[*]}" -- "$cur"))
            compopt -o nospace 2>/dev/null
            return 0 ;;
        export:--focus|export:--focus-path|export:--merge|export:--drop|export:--hide|\
        lines:--focus|lines:--focus-path|lines:--merge|lines:--drop|lines:--hide|\
        diff:--focus|diff:--focus-path|diff:--merge|diff:--drop|diff:--hide)
            return 0 ;;
        record:-o|record:--output)
            COMPREPLY=($(compgen -d -- "$cur"))
            return 0 ;;
        *:-o|*:--output)
            COMPREPLY=($(compgen -f -- "$cur"))
            return 0 ;;
        lines:-n|lines:--top|heap:-n|heap:--top|check:--max-foreground-fraction|check:--max-memory-growth|\
        check:--min-fps|check:--max-launch-ms|check:--max-live-bytes|\
        record:--duration|record:--interval|record:--ecp-port|record:--profiler-port|\
        record:--console-port)
            return 0 ;;
    esac

    case $cmd in
        info)   opts="--json --output -o --help -h" ;;
        export) opts="--format -f --metric -m --width --thread --title --from --to $transforms --output -o --help -h" ;;
        heap)   opts="--json --top -n --hide-global --help -h" ;;
        lines)  opts="--metric -m --top -n --json $transforms --output -o --help -h" ;;
        diff)   opts="--format -f --metric -m --normalized -n --absolute --threshold -t --min-change
                      --by --sort --fail-above --function --json --width --title $transforms
                      --output -o --help -h" ;;
        check)  opts="--max-foreground-fraction --max-memory-growth --min-fps --max-launch-ms
                      --max-total --max-self --max-live-bytes --format -f --output -o --help -h" ;;
        record) opts="--duration --interval --output -o --profile --resources --trace
                      --ecp-port --profiler-port --console-port --help -h" ;;
        *)      return 0 ;;
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ $cmd == record ]]; then
        # a device's address: nothing to offer
        return 0
    else
        # input files, or - for standard input
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return 0
}
complete -o filenames -o bashdefault -F _brightlens_cli brightlens-cli
