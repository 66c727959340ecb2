# bash completion for loopscope(1): the window's options, the sub-commands
# run, replay, diff, export, mcp, eval and knowledge, their options and their values.

_loopscope()
{
    local cur prev words cword
    _init_completion || return

    local provider_options="--provider --base-url --model --api-key-env"
    local command=""
    if [[ $cword -gt 1 ]]; then
        case ${words[1]} in
            run|replay|diff|export|mcp|eval|knowledge) command=${words[1]} ;;
        esac
    fi

    case $prev in
        --provider)
            COMPREPLY=($(compgen -W "openai anthropic gemini ollama" -- "$cur"))
            return ;;
        --post-loop)
            COMPREPLY=($(compgen -W "reflect summary" -- "$cur"))
            return ;;
        --on-handoff)
            COMPREPLY=($(compgen -W "continue end" -- "$cur"))
            return ;;
        --handoff-history)
            COMPREPLY=($(compgen -W "all text" -- "$cur"))
            return ;;
        --approve)
            COMPREPLY=($(compgen -W "all none" -- "$cur"))
            return ;;
        --tools|--approve-tools)
            local tools="calculator current_time read_file list_directory search_files write_file edit_file
                run_command fetch_url"
            [[ $prev == --tools ]] && tools="all $tools"
            local done_part=""
            [[ $cur == *,* ]] && done_part=${cur%,*},
            COMPREPLY=($(compgen -P "$done_part" -W "$tools" -- "${cur##*,}"))
            compopt -o nospace
            return ;;
        --knowledge)
            # The bases' definitions in the data folder (loopscope knowledge list).
            local data=${XDG_DATA_HOME:-$HOME/.local/share}/Loopscope/Loopscope/knowledge
            local bases=$(cd "$data" 2>/dev/null && ls -- *.json 2>/dev/null | sed 's/\.json$//')
            COMPREPLY=($(compgen -W "$bases" -- "$cur"))
            return ;;
        --retrieve)
            COMPREPLY=($(compgen -W "tool auto" -- "$cur"))
            return ;;
        --format)
            COMPREPLY=($(compgen -W "md html otlp" -- "$cur"))
            return ;;
        --workspace|--save-sessions)
            _filedir -d
            return ;;
        --junit)
            _filedir xml
            return ;;
        --events|--trace-out|--session|-o|--output|--mcp-config|--agents|--attach)
            _filedir
            return ;;
        --api-key-env)
            COMPREPLY=($(compgen -v -- "$cur"))
            return ;;
        --base-url|--model|--system|--agent|--shield-model|--shield-provider|--max-iterations|--max-handoffs|--turn|--turn-b|--mcp-url|--mcp-server|--jobs|--timeout|\
        --max-response-mb|--request-timeout-s|--max-tool-calls|--time-limit-s|--top-k|--context-window|--compact-at|--compact-model|\
        --url|--header|--env)
            return ;;
        --compact)
            COMPREPLY=($(compgen -W "auto trim-tool-results summarise drop-oldest off" -- "$cur"))
            return ;;
    esac

    case $command in
        run)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$provider_options --system --agents --agent --shield-model --shield-provider --on-handoff --handoff-history
                    --max-handoffs --max-iterations --post-loop --context-window --compact --compact-at --compact-model
                    --no-stream --tools --workspace --approve --approve-tools --fetch-private --knowledge --retrieve --events
                    --trace-out --session --mcp-config --mcp-url --mcp-server --no-mcp --max-response-mb
                    --request-timeout-s --max-tool-calls --time-limit-s --attach --send-images-anyway -h --help" -- "$cur"))
            fi ;;
        mcp)
            local dashes
            for ((dashes = 3; dashes < cword; dashes++)); do [[ ${words[dashes]} == -- ]] && break; done
            if [[ ${words[2]} == add && $dashes -lt $cword ]]; then
                # After "--": the server's command line.
                if [[ $((dashes + 1)) -eq $cword ]]; then
                    COMPREPLY=($(compgen -c -- "$cur"))
                else
                    _filedir
                fi
            elif [[ ${words[2]} == add && $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--url --header --env --key-file -- -h --help" -- "$cur"))
            elif [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--mcp-config --mcp-url --mcp-server --approve --provider --base-url --model
                                         --api-key-env --max-response-mb -h --help" -- "$cur"))
            elif [[ $cword -eq 2 ]]; then
                COMPREPLY=($(compgen -W "add remove list call" -- "$cur"))
            fi ;;
        knowledge)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--top-k --json --embedding-model --provider --base-url --api-key-env
                    -h --help" -- "$cur"))
            elif [[ $cword -eq 2 ]]; then
                COMPREPLY=($(compgen -W "add index list remove search" -- "$cur"))
            elif [[ ${words[2]} == add && $cword -gt 3 ]]; then
                _filedir
            fi ;;
        replay)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--turn --live-tools --workspace -h --help" -- "$cur"))
            else
                _filedir 'loopscope.json'
            fi ;;
        eval)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$provider_options --junit --agents --jobs --timeout --save-sessions
                    --max-response-mb --request-timeout-s --max-tool-calls --time-limit-s -h --help" -- "$cur"))
            else
                _filedir jsonl
            fi ;;
        diff)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--turn --turn-b -h --help" -- "$cur"))
            else
                _filedir 'loopscope.json'
            fi ;;
        export)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--format -o --output --otlp-content -h --help" -- "$cur"))
            else
                _filedir 'loopscope.json'
            fi ;;
        *)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$provider_options -h --help --help-all -v --version" -- "$cur"))
            elif [[ $cword -eq 1 ]]; then
                COMPREPLY=($(compgen -W "run replay diff export mcp eval knowledge" -- "$cur"))
                _filedir 'loopscope.json'
            else
                _filedir 'loopscope.json'
            fi ;;
    esac
} &&
    complete -F _loopscope loopscope

# ex: filetype=sh
