# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_ysess_global_optspecs
    string join \n f/file= s/session= C= color= q/quiet no-pager format-of= j/jobs= h/help V/version
end

function __fish_ysess_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_ysess_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_ysess_using_subcommand
    set -l cmd (__fish_ysess_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c ysess -n "__fish_ysess_needs_command" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_needs_command" -s s -l session -d 'The session to use instead of -f: a unique start of its id or file name, `latest` (the session written last) or `latest~N`, found where `ysess ls` looks, then in the archive (before the command\'s name: `export --session` is export\'s own)' -r
complete -c ysess -n "__fish_ysess_needs_command" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_needs_command" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_needs_command" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_needs_command" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_needs_command" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_needs_command" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_needs_command" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "log" -d 'Show the conversation that led to an entry, newest first'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "ls" -d 'List every session on this machine, newest activity first'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "archive" -d 'Keep a copy of every session, before the agents delete or rewrite them'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "show" -d 'Show one entry in full'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "branch" -d 'List, create, rename or delete branches'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "tag" -d 'Label an entry (a checkpoint), or list labels'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "checkout" -d 'Move HEAD to an entry, so that an agent resumes there'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "resume" -d 'Go on with a session in its own agent, from any entry'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "append" -d 'Append messages below HEAD, as an agent would'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "export" -d 'Print a path\'s messages, ready for an agent to resume with'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "diff" -d 'Compare two directions of a conversation'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "fsck" -d 'Check that session files load in yoagent, and more'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "status" -d 'Say where HEAD is, and how the file stands'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "reflog" -d 'List every HEAD move ysess recorded, newest first'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "grep" -d 'Search the text of a session\'s messages'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "stats" -d 'Account for the turns: tokens, cost, tool calls, models, time'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "tui" -d 'Browse a session\'s tree and its chat, as tig browses a repository'
complete -c ysess -n "__fish_ysess_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c ysess -n "__fish_ysess_using_subcommand log" -s n -l max-count -d 'Show at most N entries (`-N` too, as in git: `log -3`)' -r
complete -c ysess -n "__fish_ysess_using_subcommand log" -l format -d 'Print each entry with this template, e.g. \'{id} {subject}\'' -r
complete -c ysess -n "__fish_ysess_using_subcommand log" -l grep -d 'Only entries whose message text matches PATTERN (a regular expression; repeat it for any of several, see --all-match)' -r
complete -c ysess -n "__fish_ysess_using_subcommand log" -l role -d 'Only entries of this role (repeatable)' -r -f -a "user\t''
assistant\t''
toolResult\t''"
complete -c ysess -n "__fish_ysess_using_subcommand log" -l tool -d 'Only assistant messages that call the tool NAME, and its results' -r
complete -c ysess -n "__fish_ysess_using_subcommand log" -l model -d 'Only assistant messages of the model NAME' -r
complete -c ysess -n "__fish_ysess_using_subcommand log" -l since -d 'Only entries at or after this time (2025-12-02, \'2025-12-02 09:03\', yesterday, \'3 days ago\'; local time)' -r
complete -c ysess -n "__fish_ysess_using_subcommand log" -l until -d 'Only entries at or before this time (the forms of --since)' -r
complete -c ysess -n "__fish_ysess_using_subcommand log" -l min-tokens -d 'Only assistant messages whose usage (input, output, cache read and write tokens) adds up to at least N' -r
complete -c ysess -n "__fish_ysess_using_subcommand log" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand log" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand log" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand log" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand log" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand log" -l oneline -d 'One line per entry: id, decorations, role and subject'
complete -c ysess -n "__fish_ysess_using_subcommand log" -l reverse -d 'Oldest first'
complete -c ysess -n "__fish_ysess_using_subcommand log" -l all -d 'Every entry of every branch, not just one path (so no REV)'
complete -c ysess -n "__fish_ysess_using_subcommand log" -l graph -d 'Draw the tree (all of it, unless a REV is given)'
complete -c ysess -n "__fish_ysess_using_subcommand log" -l ascii -d 'Draw the graph with ASCII characters only (with --graph)'
complete -c ysess -n "__fish_ysess_using_subcommand log" -s z -d 'End each entry with NUL instead of a newline'
complete -c ysess -n "__fish_ysess_using_subcommand log" -l json -d 'The entries as stored, one JSON object per line'
complete -c ysess -n "__fish_ysess_using_subcommand log" -l markers -d 'Also show ysess\'s own bookkeeping records (hidden by default)'
complete -c ysess -n "__fish_ysess_using_subcommand log" -l all-match -d 'With several --grep: entries that match all of them'
complete -c ysess -n "__fish_ysess_using_subcommand log" -s i -l regexp-ignore-case -d 'With --grep: ignore case'
complete -c ysess -n "__fish_ysess_using_subcommand log" -s F -l fixed-strings -d 'With --grep: fixed strings, not regular expressions'
complete -c ysess -n "__fish_ysess_using_subcommand log" -l labelled -d 'Only entries a label names'
complete -c ysess -n "__fish_ysess_using_subcommand log" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand log" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand log" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand log" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand ls" -l since -d 'Only sessions active at or after this time (2025-12-02, yesterday, \'3 days ago\'; local time)' -r
complete -c ysess -n "__fish_ysess_using_subcommand ls" -l until -d 'Only sessions started at or before this time (the forms of --since)' -r
complete -c ysess -n "__fish_ysess_using_subcommand ls" -l agent -d 'Only the sessions of this agent\'s format (repeatable)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand ls" -l project -d 'Only sessions whose project (the folder the agent worked in) contains TEXT' -r
complete -c ysess -n "__fish_ysess_using_subcommand ls" -l archive -d 'Also the sessions archived in DIR (by `ysess archive`) that the agents no longer have, marked archived [default: read when it exists and no folder is named; DIR: $YSESS_ARCHIVE, else ~/.local/share/ysess/archive]' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand ls" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand ls" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand ls" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand ls" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand ls" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand ls" -l no-archive -d 'Leave out the archive\'s sessions'
complete -c ysess -n "__fish_ysess_using_subcommand ls" -l json -d 'One JSON object per session, then a total'
complete -c ysess -n "__fish_ysess_using_subcommand ls" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand ls" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand ls" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand archive" -l hook -d 'Print the entry for the agent\'s settings that runs `ysess archive` (into DIR, when named) each time a session of the agent ends, and archive nothing' -r -f -a "claude\t'Claude Code\'s `SessionEnd` hook, for ~/.claude/settings.json'
gemini\t'Gemini CLI\'s `SessionEnd` hook, for ~/.gemini/settings.json'"
complete -c ysess -n "__fish_ysess_using_subcommand archive" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand archive" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand archive" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand archive" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand archive" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand archive" -l json -d 'One JSON object per session archived, then a total'
complete -c ysess -n "__fish_ysess_using_subcommand archive" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand archive" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand archive" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand archive" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand show" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand show" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand show" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand show" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand show" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand show" -l json -d 'Each entry as stored, one JSON object per line'
complete -c ysess -n "__fish_ysess_using_subcommand show" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand show" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand show" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand branch" -s d -l delete -d 'Delete a branch\'s name (its entries stay)' -r
complete -c ysess -n "__fish_ysess_using_subcommand branch" -s m -l move -d 'Rename a branch' -r
complete -c ysess -n "__fish_ysess_using_subcommand branch" -l contains -d 'Only branches whose path contains REV' -r
complete -c ysess -n "__fish_ysess_using_subcommand branch" -l format -d 'Print each branch with this template, e.g. \'{name}{tab}{tokens_out}\'' -r
complete -c ysess -n "__fish_ysess_using_subcommand branch" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand branch" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand branch" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand branch" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand branch" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand branch" -s F -l force -d 'Start the branch again even if the name exists'
complete -c ysess -n "__fish_ysess_using_subcommand branch" -s v -l verbose -d 'Also show each branch\'s tip, fork point, length and last message'
complete -c ysess -n "__fish_ysess_using_subcommand branch" -l json -d 'One JSON object per branch'
complete -c ysess -n "__fish_ysess_using_subcommand branch" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand branch" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand branch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand branch" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand tag" -s d -l delete -d 'Delete a label (refused: see the message)' -r
complete -c ysess -n "__fish_ysess_using_subcommand tag" -s l -l list -d 'Only labels matching PATTERN (`*` any text, `?` one character, `[abc]` one of those)' -r
complete -c ysess -n "__fish_ysess_using_subcommand tag" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand tag" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand tag" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand tag" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand tag" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand tag" -s F -l force -d 'Set the label even if it names another entry already'
complete -c ysess -n "__fish_ysess_using_subcommand tag" -s n -d 'Also show the first line of each label\'s entry'
complete -c ysess -n "__fish_ysess_using_subcommand tag" -l json -d 'One JSON object per label'
complete -c ysess -n "__fish_ysess_using_subcommand tag" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand tag" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand tag" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand tag" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand checkout" -s b -d 'Start a branch called NAME at REV and move HEAD onto it' -r
complete -c ysess -n "__fish_ysess_using_subcommand checkout" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand checkout" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand checkout" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand checkout" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand checkout" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand checkout" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand checkout" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand checkout" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand checkout" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand resume" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand resume" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand resume" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand resume" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand resume" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand resume" -l print -d 'Print the command (one shell-quoted line, after `cd` to the working directory) instead of running it; a new session file it needs is written all the same'
complete -c ysess -n "__fish_ysess_using_subcommand resume" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand resume" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand resume" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand resume" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand append" -l user -d 'A user message with this text (instead of JSON on standard input)' -r
complete -c ysess -n "__fish_ysess_using_subcommand append" -l parent -d 'Append below REV instead of HEAD' -r
complete -c ysess -n "__fish_ysess_using_subcommand append" -l label -d 'Label the last new entry (a checkpoint)' -r
complete -c ysess -n "__fish_ysess_using_subcommand append" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand append" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand append" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand append" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand append" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand append" -l create -d 'Start a new session when the file is missing or empty (otherwise an empty file is refused: an app saving it whole empties it first)'
complete -c ysess -n "__fish_ysess_using_subcommand append" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand append" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand append" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand append" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand export" -s o -l output -d 'Write to FILE instead of standard output (replaced whole, once done; never the session file)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand export" -l parquet -d 'Write sessions as Parquet tables into the folder OUT: every entry, tree and session, for DuckDB, Spark or Trino (see docs/tables.md)' -r -f -a "(__fish_complete_directories)"
complete -c ysess -n "__fish_ysess_using_subcommand export" -l archive -d 'Also the sessions archived in DIR (by `ysess archive`) that the agents no longer have, marked archived [default: read when it exists and no folder is named; DIR: $YSESS_ARCHIVE, else ~/.local/share/ysess/archive]' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand export" -l since-manifest -d 'With --parquet: only the lines appended since the manifest OLD (`fsck --manifest` or `export --manifest` wrote it); a file that no longer starts with what OLD says is refused' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand export" -l manifest -d 'With --parquet: write a manifest of every file exported to MANIFEST, for the next --since-manifest' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand export" -l redact-pattern -d 'With --redact: also redact what REGEX matches (kind `pattern`); repeatable' -r
complete -c ysess -n "__fish_ysess_using_subcommand export" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand export" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand export" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand export" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand export" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand export" -l session -d 'Write the path as a linear session file (JSON Lines)'
complete -c ysess -n "__fish_ysess_using_subcommand export" -l html -d 'Write one HTML page of the whole tree (with REV: of its path)'
complete -c ysess -n "__fish_ysess_using_subcommand export" -l markdown -d 'Write the path as Markdown'
complete -c ysess -n "__fish_ysess_using_subcommand export" -l all -d 'With --parquet: every session `ysess ls` finds'
complete -c ysess -n "__fish_ysess_using_subcommand export" -l no-archive -d 'Leave out the archive\'s sessions'
complete -c ysess -n "__fish_ysess_using_subcommand export" -l redact -d 'Replace secrets, e-mail addresses, the home directory and the user\'s name with `[redacted: KIND]`'
complete -c ysess -n "__fish_ysess_using_subcommand export" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand export" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand export" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand diff" -s U -l unified -d 'Lines of context around each change' -r
complete -c ysess -n "__fish_ysess_using_subcommand diff" -l files -d 'Compare two copies of a session file (OLD NEW) entry by entry' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand diff" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand diff" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand diff" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand diff" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand diff" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand diff" -l stat -d 'Per side: turns by role, tokens in and out, tool calls by name'
complete -c ysess -n "__fish_ysess_using_subcommand diff" -l summary -d 'One line per turn: `+ e42 assistant: …`'
complete -c ysess -n "__fish_ysess_using_subcommand diff" -l word-diff -d 'Show changed words inline ([-old-]{+new+}) instead of lines'
complete -c ysess -n "__fish_ysess_using_subcommand diff" -l color-words -d 'Show changed words inline, in colour'
complete -c ysess -n "__fish_ysess_using_subcommand diff" -l exit-code -d 'Exit 1 when the sides differ, 0 when not'
complete -c ysess -n "__fish_ysess_using_subcommand diff" -l json -d 'The fork point, the aligned turns and the stats as JSON'
complete -c ysess -n "__fish_ysess_using_subcommand diff" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand diff" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand diff" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand diff" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l since -d 'Check the file only grew since a digest (from --digest) or an old copy' -r
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l glob -d 'Which files a directory\'s walk checks, by name (or by path below the directory, when the glob holds a `/`); repeat for several [default: *.jsonl]' -r
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l since-rev -d 'Prove that every session file at git revision COMMIT (any name git knows: a branch, a tag, HEAD~3) only grew since: old versions are read through git; deleted, shortened or rewritten files are errors' -r
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l manifest -d 'Write each file\'s digest to OUT, one JSON line per file' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l since-manifest -d 'Prove that every file a manifest (from --manifest) lists only grew since; missing files are errors' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l strict -d 'Treat warnings as errors for the exit status'
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -s v -l verbose -d 'Print a summary line per file: entries, roots, tips, labels, HEAD'
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l json -d 'Print findings and summaries as JSON Lines on stdout'
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l repair -d 'Cut a torn last line (an interrupted write), saving its bytes beside the file as FILE.torn-OFFSET; nothing else is ever changed'
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l digest -d 'Print each file\'s digest, sha256:<hex>:<bytes>, on stdout'
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l allow-empty -d 'Pass when the directories hold no session file at all (by default that fails, so that a wrong path does not pass as a clean fleet)'
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand fsck" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand status" -l digest -d 'A digest from `ysess fsck --digest` (sha256:<hex>:<bytes>), or a file holding one, to tell whether the file changed since' -r
complete -c ysess -n "__fish_ysess_using_subcommand status" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand status" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand status" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand status" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand status" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand status" -l json -d 'One JSON object'
complete -c ysess -n "__fish_ysess_using_subcommand status" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand status" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand status" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand reflog" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand reflog" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand reflog" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand reflog" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand reflog" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand reflog" -l json -d 'One JSON object per move'
complete -c ysess -n "__fish_ysess_using_subcommand reflog" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand reflog" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand reflog" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand reflog" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -l context -d 'Show N lines of context around each match, within its block (`-C` is the global option that changes directory)' -r
complete -c ysess -n "__fish_ysess_using_subcommand grep" -l role -d 'Only messages of this role (repeatable)' -r -f -a "user\t''
assistant\t''
toolResult\t''"
complete -c ysess -n "__fish_ysess_using_subcommand grep" -l tool -d 'Only the calls of the tool NAME (its name and arguments) and its results' -r
complete -c ysess -n "__fish_ysess_using_subcommand grep" -l archive -d 'Also the sessions archived in DIR (by `ysess archive`) that the agents no longer have, marked archived [default: read when it exists and no folder is named; DIR: $YSESS_ARCHIVE, else ~/.local/share/ysess/archive]' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand grep" -l redact-pattern -d 'With --secrets: also list what REGEX matches (kind `pattern`); repeatable' -r
complete -c ysess -n "__fish_ysess_using_subcommand grep" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand grep" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand grep" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand grep" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand grep" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand grep" -s F -l fixed-strings -d 'PATTERN is a fixed string, not a regular expression'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -s i -l ignore-case -d 'Ignore case'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -s w -l word-regexp -d 'Match whole words only'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -s l -l list -d 'Print only the ids of the entries that match'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -s c -l count -d 'Print each matching entry\'s id and its number of matching lines'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -l json -d 'One JSON object per match: id, line, role, block, kind, tool, start, end, text (with --all, also session and path)'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -l all -d 'Search every session, not only the session file'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -l no-archive -d 'Leave out the archive\'s sessions'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -l secrets -d 'List what `export --redact` would take out, one find a line: the entry\'s id, the kind, and the secret partly masked; no PATTERN'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand grep" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand stats" -l by -d 'Group by branch (or revision), model, tool, day, week or month; with --all also by session (the default), project or agent' -r -f -a "branch\t'Each branch, or each revision\'s path'
model\t'Each model: its assistant turns and the tool results answering them'
tool\t'Each tool: calls and errors'
day\t'Each local day'
week\t'Each ISO week (`2026-W49`, Monday to Sunday, local time)'
month\t'Each local month (`2026-12`)'
session\t'Each session (with --all)'
project\t'Each project, the folder the agent worked in (with --all)'
agent\t'Each agent: claude, pi, codex, yoagent (with --all)'"
complete -c ysess -n "__fish_ysess_using_subcommand stats" -l archive -d 'Also the sessions archived in DIR (by `ysess archive`) that the agents no longer have, marked archived [default: read when it exists and no folder is named; DIR: $YSESS_ARCHIVE, else ~/.local/share/ysess/archive]' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand stats" -l since -d 'With --all: only entries at or after this time (2025-12-02, yesterday, \'3 days ago\'; local time)' -r
complete -c ysess -n "__fish_ysess_using_subcommand stats" -l until -d 'With --all: only entries at or before this time (the forms of --since)' -r
complete -c ysess -n "__fish_ysess_using_subcommand stats" -l tz -d 'The time zone of days, weeks and months: a name of the zone database (Europe/Berlin, UTC) [default: the local zone]' -r
complete -c ysess -n "__fish_ysess_using_subcommand stats" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand stats" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand stats" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand stats" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand stats" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand stats" -l all -d 'Every session, not only the session file\'s'
complete -c ysess -n "__fish_ysess_using_subcommand stats" -l no-archive -d 'Leave out the archive\'s sessions'
complete -c ysess -n "__fish_ysess_using_subcommand stats" -l json -d 'One JSON object per group, then the total'
complete -c ysess -n "__fish_ysess_using_subcommand stats" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand stats" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand stats" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand stats" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand tui" -l archive -d 'Also the sessions archived in DIR (by `ysess archive`) that the agents no longer have, marked archived [default: read when it exists and no folder is named; DIR: $YSESS_ARCHIVE, else ~/.local/share/ysess/archive]' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand tui" -s f -l file -d 'The session file (`-` reads standard input)' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand tui" -s C -d 'Run as if started in DIR' -r -F
complete -c ysess -n "__fish_ysess_using_subcommand tui" -l color -d 'When to use colours (`auto` honours NO_COLOR)' -r -f -a "auto\t'Colour on a terminal, unless `NO_COLOR` is set'
always\t'Colour even into a pipe or a file'
never\t'No colour'"
complete -c ysess -n "__fish_ysess_using_subcommand tui" -l format-of -d 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent\'s)' -r -f -a "yoagent\t'yoagent\'s session files'
pi\t'pi\'s session files (`@mariozechner/pi-coding-agent`)'
claude\t'Claude Code\'s session files (read only)'
codex\t'Codex\'s rollout files (read only)'
qwen\t'Qwen Code\'s session files (read only)'
gemini\t'Gemini CLI\'s session files (read only)'
copilot\t'GitHub Copilot CLI\'s session files (read only)'
opencode\t'OpenCode\'s sessions, in its SQLite database (read only)'"
complete -c ysess -n "__fish_ysess_using_subcommand tui" -s j -l jobs -d 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)' -r
complete -c ysess -n "__fish_ysess_using_subcommand tui" -l all -d 'Start from the list of every session `ysess ls` finds'
complete -c ysess -n "__fish_ysess_using_subcommand tui" -l ascii -d 'Draw the graph with ASCII characters only'
complete -c ysess -n "__fish_ysess_using_subcommand tui" -l no-archive -d 'Leave out the archive\'s sessions'
complete -c ysess -n "__fish_ysess_using_subcommand tui" -s q -l quiet -d 'Print less: no status messages, no hints'
complete -c ysess -n "__fish_ysess_using_subcommand tui" -l no-pager -d 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
complete -c ysess -n "__fish_ysess_using_subcommand tui" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c ysess -n "__fish_ysess_using_subcommand tui" -s V -l version -d 'Print version'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "log" -d 'Show the conversation that led to an entry, newest first'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "ls" -d 'List every session on this machine, newest activity first'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "archive" -d 'Keep a copy of every session, before the agents delete or rewrite them'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "show" -d 'Show one entry in full'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "branch" -d 'List, create, rename or delete branches'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "tag" -d 'Label an entry (a checkpoint), or list labels'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "checkout" -d 'Move HEAD to an entry, so that an agent resumes there'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "resume" -d 'Go on with a session in its own agent, from any entry'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "append" -d 'Append messages below HEAD, as an agent would'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "export" -d 'Print a path\'s messages, ready for an agent to resume with'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "diff" -d 'Compare two directions of a conversation'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "fsck" -d 'Check that session files load in yoagent, and more'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "status" -d 'Say where HEAD is, and how the file stands'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "reflog" -d 'List every HEAD move ysess recorded, newest first'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "grep" -d 'Search the text of a session\'s messages'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "stats" -d 'Account for the turns: tokens, cost, tool calls, models, time'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "tui" -d 'Browse a session\'s tree and its chat, as tig browses a repository'
complete -c ysess -n "__fish_ysess_using_subcommand help; and not __fish_seen_subcommand_from log ls archive show branch tag checkout resume append export diff fsck status reflog grep stats tui help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
