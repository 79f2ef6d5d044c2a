
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'ysess' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'ysess'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'ysess' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The session to use instead of -f: a unique start of its id or file name, `latest` (the session written last) or `latest~N`, found where `ysess ls` looks, then in the archive (before the command''s name: `export --session` is export''s own)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'The session to use instead of -f: a unique start of its id or file name, `latest` (the session written last) or `latest~N`, found where `ysess ls` looks, then in the archive (before the command''s name: `export --session` is export''s own)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show the conversation that led to an entry, newest first')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List every session on this machine, newest activity first')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Keep a copy of every session, before the agents delete or rewrite them')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one entry in full')
            [CompletionResult]::new('branch', 'branch', [CompletionResultType]::ParameterValue, 'List, create, rename or delete branches')
            [CompletionResult]::new('tag', 'tag', [CompletionResultType]::ParameterValue, 'Label an entry (a checkpoint), or list labels')
            [CompletionResult]::new('checkout', 'checkout', [CompletionResultType]::ParameterValue, 'Move HEAD to an entry, so that an agent resumes there')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Go on with a session in its own agent, from any entry')
            [CompletionResult]::new('append', 'append', [CompletionResultType]::ParameterValue, 'Append messages below HEAD, as an agent would')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Print a path''s messages, ready for an agent to resume with')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare two directions of a conversation')
            [CompletionResult]::new('fsck', 'fsck', [CompletionResultType]::ParameterValue, 'Check that session files load in yoagent, and more')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Say where HEAD is, and how the file stands')
            [CompletionResult]::new('reflog', 'reflog', [CompletionResultType]::ParameterValue, 'List every HEAD move ysess recorded, newest first')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search the text of a session''s messages')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Account for the turns: tokens, cost, tool calls, models, time')
            [CompletionResult]::new('tui', 'tui', [CompletionResultType]::ParameterValue, 'Browse a session''s tree and its chat, as tig browses a repository')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ysess;log' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Show at most N entries (`-N` too, as in git: `log -3`)')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'Show at most N entries (`-N` too, as in git: `log -3`)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Print each entry with this template, e.g. ''{id} {subject}''')
            [CompletionResult]::new('--grep', '--grep', [CompletionResultType]::ParameterName, 'Only entries whose message text matches PATTERN (a regular expression; repeat it for any of several, see --all-match)')
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Only entries of this role (repeatable)')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Only assistant messages that call the tool NAME, and its results')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'Only assistant messages of the model NAME')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only entries at or after this time (2025-12-02, ''2025-12-02 09:03'', yesterday, ''3 days ago''; local time)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only entries at or before this time (the forms of --since)')
            [CompletionResult]::new('--min-tokens', '--min-tokens', [CompletionResultType]::ParameterName, 'Only assistant messages whose usage (input, output, cache read and write tokens) adds up to at least N')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--oneline', '--oneline', [CompletionResultType]::ParameterName, 'One line per entry: id, decorations, role and subject')
            [CompletionResult]::new('--reverse', '--reverse', [CompletionResultType]::ParameterName, 'Oldest first')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every entry of every branch, not just one path (so no REV)')
            [CompletionResult]::new('--graph', '--graph', [CompletionResultType]::ParameterName, 'Draw the tree (all of it, unless a REV is given)')
            [CompletionResult]::new('--ascii', '--ascii', [CompletionResultType]::ParameterName, 'Draw the graph with ASCII characters only (with --graph)')
            [CompletionResult]::new('-z', '-z', [CompletionResultType]::ParameterName, 'End each entry with NUL instead of a newline')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'The entries as stored, one JSON object per line')
            [CompletionResult]::new('--markers', '--markers', [CompletionResultType]::ParameterName, 'Also show ysess''s own bookkeeping records (hidden by default)')
            [CompletionResult]::new('--all-match', '--all-match', [CompletionResultType]::ParameterName, 'With several --grep: entries that match all of them')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'With --grep: ignore case')
            [CompletionResult]::new('--regexp-ignore-case', '--regexp-ignore-case', [CompletionResultType]::ParameterName, 'With --grep: ignore case')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'With --grep: fixed strings, not regular expressions')
            [CompletionResult]::new('--fixed-strings', '--fixed-strings', [CompletionResultType]::ParameterName, 'With --grep: fixed strings, not regular expressions')
            [CompletionResult]::new('--labelled', '--labelled', [CompletionResultType]::ParameterName, 'Only entries a label names')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;ls' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only sessions active at or after this time (2025-12-02, yesterday, ''3 days ago''; local time)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'Only sessions started at or before this time (the forms of --since)')
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Only the sessions of this agent''s format (repeatable)')
            [CompletionResult]::new('--project', '--project', [CompletionResultType]::ParameterName, 'Only sessions whose project (the folder the agent worked in) contains TEXT')
            [CompletionResult]::new('--archive', '--archive', [CompletionResultType]::ParameterName, 'Also the sessions archived in DIR (by `ysess archive`) that the agents no longer have, marked archived [default: read when it exists and no folder is named; DIR: $YSESS_ARCHIVE, else ~/.local/share/ysess/archive]')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--no-archive', '--no-archive', [CompletionResultType]::ParameterName, 'Leave out the archive''s sessions')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON object per session, then a total')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;archive' {
            [CompletionResult]::new('--hook', '--hook', [CompletionResultType]::ParameterName, 'Print the entry for the agent''s settings that runs `ysess archive` (into DIR, when named) each time a session of the agent ends, and archive nothing')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON object per session archived, then a total')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;show' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Each entry as stored, one JSON object per line')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;branch' {
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'Delete a branch''s name (its entries stay)')
            [CompletionResult]::new('--delete', '--delete', [CompletionResultType]::ParameterName, 'Delete a branch''s name (its entries stay)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Rename a branch')
            [CompletionResult]::new('--move', '--move', [CompletionResultType]::ParameterName, 'Rename a branch')
            [CompletionResult]::new('--contains', '--contains', [CompletionResultType]::ParameterName, 'Only branches whose path contains REV')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Print each branch with this template, e.g. ''{name}{tab}{tokens_out}''')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'Start the branch again even if the name exists')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Start the branch again even if the name exists')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Also show each branch''s tip, fork point, length and last message')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Also show each branch''s tip, fork point, length and last message')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON object per branch')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;tag' {
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'Delete a label (refused: see the message)')
            [CompletionResult]::new('--delete', '--delete', [CompletionResultType]::ParameterName, 'Delete a label (refused: see the message)')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only labels matching PATTERN (`*` any text, `?` one character, `[abc]` one of those)')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'Only labels matching PATTERN (`*` any text, `?` one character, `[abc]` one of those)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'Set the label even if it names another entry already')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Set the label even if it names another entry already')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Also show the first line of each label''s entry')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON object per label')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;checkout' {
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Start a branch called NAME at REV and move HEAD onto it')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;resume' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--print', '--print', [CompletionResultType]::ParameterName, 'Print the command (one shell-quoted line, after `cd` to the working directory) instead of running it; a new session file it needs is written all the same')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;append' {
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'A user message with this text (instead of JSON on standard input)')
            [CompletionResult]::new('--parent', '--parent', [CompletionResultType]::ParameterName, 'Append below REV instead of HEAD')
            [CompletionResult]::new('--label', '--label', [CompletionResultType]::ParameterName, 'Label the last new entry (a checkpoint)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--create', '--create', [CompletionResultType]::ParameterName, 'Start a new session when the file is missing or empty (otherwise an empty file is refused: an app saving it whole empties it first)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;export' {
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Write to FILE instead of standard output (replaced whole, once done; never the session file)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write to FILE instead of standard output (replaced whole, once done; never the session file)')
            [CompletionResult]::new('--parquet', '--parquet', [CompletionResultType]::ParameterName, 'Write sessions as Parquet tables into the folder OUT: every entry, tree and session, for DuckDB, Spark or Trino (see docs/tables.md)')
            [CompletionResult]::new('--archive', '--archive', [CompletionResultType]::ParameterName, 'Also the sessions archived in DIR (by `ysess archive`) that the agents no longer have, marked archived [default: read when it exists and no folder is named; DIR: $YSESS_ARCHIVE, else ~/.local/share/ysess/archive]')
            [CompletionResult]::new('--since-manifest', '--since-manifest', [CompletionResultType]::ParameterName, 'With --parquet: only the lines appended since the manifest OLD (`fsck --manifest` or `export --manifest` wrote it); a file that no longer starts with what OLD says is refused')
            [CompletionResult]::new('--manifest', '--manifest', [CompletionResultType]::ParameterName, 'With --parquet: write a manifest of every file exported to MANIFEST, for the next --since-manifest')
            [CompletionResult]::new('--redact-pattern', '--redact-pattern', [CompletionResultType]::ParameterName, 'With --redact: also redact what REGEX matches (kind `pattern`); repeatable')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Write the path as a linear session file (JSON Lines)')
            [CompletionResult]::new('--html', '--html', [CompletionResultType]::ParameterName, 'Write one HTML page of the whole tree (with REV: of its path)')
            [CompletionResult]::new('--markdown', '--markdown', [CompletionResultType]::ParameterName, 'Write the path as Markdown')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'With --parquet: every session `ysess ls` finds')
            [CompletionResult]::new('--no-archive', '--no-archive', [CompletionResultType]::ParameterName, 'Leave out the archive''s sessions')
            [CompletionResult]::new('--redact', '--redact', [CompletionResultType]::ParameterName, 'Replace secrets, e-mail addresses, the home directory and the user''s name with `[redacted: KIND]`')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;diff' {
            [CompletionResult]::new('-U', '-U ', [CompletionResultType]::ParameterName, 'Lines of context around each change')
            [CompletionResult]::new('--unified', '--unified', [CompletionResultType]::ParameterName, 'Lines of context around each change')
            [CompletionResult]::new('--files', '--files', [CompletionResultType]::ParameterName, 'Compare two copies of a session file (OLD NEW) entry by entry')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--stat', '--stat', [CompletionResultType]::ParameterName, 'Per side: turns by role, tokens in and out, tool calls by name')
            [CompletionResult]::new('--summary', '--summary', [CompletionResultType]::ParameterName, 'One line per turn: `+ e42 assistant: …`')
            [CompletionResult]::new('--word-diff', '--word-diff', [CompletionResultType]::ParameterName, 'Show changed words inline ([-old-]{+new+}) instead of lines')
            [CompletionResult]::new('--color-words', '--color-words', [CompletionResultType]::ParameterName, 'Show changed words inline, in colour')
            [CompletionResult]::new('--exit-code', '--exit-code', [CompletionResultType]::ParameterName, 'Exit 1 when the sides differ, 0 when not')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'The fork point, the aligned turns and the stats as JSON')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;fsck' {
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Check the file only grew since a digest (from --digest) or an old copy')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Which files a directory''s walk checks, by name (or by path below the directory, when the glob holds a `/`); repeat for several [default: *.jsonl]')
            [CompletionResult]::new('--since-rev', '--since-rev', [CompletionResultType]::ParameterName, 'Prove that every session file at git revision COMMIT (any name git knows: a branch, a tag, HEAD~3) only grew since: old versions are read through git; deleted, shortened or rewritten files are errors')
            [CompletionResult]::new('--manifest', '--manifest', [CompletionResultType]::ParameterName, 'Write each file''s digest to OUT, one JSON line per file')
            [CompletionResult]::new('--since-manifest', '--since-manifest', [CompletionResultType]::ParameterName, 'Prove that every file a manifest (from --manifest) lists only grew since; missing files are errors')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--strict', '--strict', [CompletionResultType]::ParameterName, 'Treat warnings as errors for the exit status')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Print a summary line per file: entries, roots, tips, labels, HEAD')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Print a summary line per file: entries, roots, tips, labels, HEAD')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print findings and summaries as JSON Lines on stdout')
            [CompletionResult]::new('--repair', '--repair', [CompletionResultType]::ParameterName, 'Cut a torn last line (an interrupted write), saving its bytes beside the file as FILE.torn-OFFSET; nothing else is ever changed')
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'Print each file''s digest, sha256:<hex>:<bytes>, on stdout')
            [CompletionResult]::new('--allow-empty', '--allow-empty', [CompletionResultType]::ParameterName, 'Pass when the directories hold no session file at all (by default that fails, so that a wrong path does not pass as a clean fleet)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;status' {
            [CompletionResult]::new('--digest', '--digest', [CompletionResultType]::ParameterName, 'A digest from `ysess fsck --digest` (sha256:<hex>:<bytes>), or a file holding one, to tell whether the file changed since')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON object')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;reflog' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON object per move')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;grep' {
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Show N lines of context around each match, within its block (`-C` is the global option that changes directory)')
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Only messages of this role (repeatable)')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Only the calls of the tool NAME (its name and arguments) and its results')
            [CompletionResult]::new('--archive', '--archive', [CompletionResultType]::ParameterName, 'Also the sessions archived in DIR (by `ysess archive`) that the agents no longer have, marked archived [default: read when it exists and no folder is named; DIR: $YSESS_ARCHIVE, else ~/.local/share/ysess/archive]')
            [CompletionResult]::new('--redact-pattern', '--redact-pattern', [CompletionResultType]::ParameterName, 'With --secrets: also list what REGEX matches (kind `pattern`); repeatable')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'PATTERN is a fixed string, not a regular expression')
            [CompletionResult]::new('--fixed-strings', '--fixed-strings', [CompletionResultType]::ParameterName, 'PATTERN is a fixed string, not a regular expression')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Ignore case')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Ignore case')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Match whole words only')
            [CompletionResult]::new('--word-regexp', '--word-regexp', [CompletionResultType]::ParameterName, 'Match whole words only')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Print only the ids of the entries that match')
            [CompletionResult]::new('--list', '--list', [CompletionResultType]::ParameterName, 'Print only the ids of the entries that match')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Print each matching entry''s id and its number of matching lines')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Print each matching entry''s id and its number of matching lines')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON object per match: id, line, role, block, kind, tool, start, end, text (with --all, also session and path)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Search every session, not only the session file')
            [CompletionResult]::new('--no-archive', '--no-archive', [CompletionResultType]::ParameterName, 'Leave out the archive''s sessions')
            [CompletionResult]::new('--secrets', '--secrets', [CompletionResultType]::ParameterName, 'List what `export --redact` would take out, one find a line: the entry''s id, the kind, and the secret partly masked; no PATTERN')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;stats' {
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'Group by branch (or revision), model, tool, day, week or month; with --all also by session (the default), project or agent')
            [CompletionResult]::new('--archive', '--archive', [CompletionResultType]::ParameterName, 'Also the sessions archived in DIR (by `ysess archive`) that the agents no longer have, marked archived [default: read when it exists and no folder is named; DIR: $YSESS_ARCHIVE, else ~/.local/share/ysess/archive]')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'With --all: only entries at or after this time (2025-12-02, yesterday, ''3 days ago''; local time)')
            [CompletionResult]::new('--until', '--until', [CompletionResultType]::ParameterName, 'With --all: only entries at or before this time (the forms of --since)')
            [CompletionResult]::new('--tz', '--tz', [CompletionResultType]::ParameterName, 'The time zone of days, weeks and months: a name of the zone database (Europe/Berlin, UTC) [default: the local zone]')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every session, not only the session file''s')
            [CompletionResult]::new('--no-archive', '--no-archive', [CompletionResultType]::ParameterName, 'Leave out the archive''s sessions')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'One JSON object per group, then the total')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;tui' {
            [CompletionResult]::new('--archive', '--archive', [CompletionResultType]::ParameterName, 'Also the sessions archived in DIR (by `ysess archive`) that the agents no longer have, marked archived [default: read when it exists and no folder is named; DIR: $YSESS_ARCHIVE, else ~/.local/share/ysess/archive]')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('--file', '--file', [CompletionResultType]::ParameterName, 'The session file (`-` reads standard input)')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Run as if started in DIR')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours (`auto` honours NO_COLOR)')
            [CompletionResult]::new('--format-of', '--format-of', [CompletionResultType]::ParameterName, 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)')
            [CompletionResult]::new('-j', '-j', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--jobs', '--jobs', [CompletionResultType]::ParameterName, 'Threads for the work done in parallel: fsck, ls, grep, stats and the exports over many sessions or a large one (default: $YSESS_JOBS, else every core)')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Start from the list of every session `ysess ls` finds')
            [CompletionResult]::new('--ascii', '--ascii', [CompletionResultType]::ParameterName, 'Draw the graph with ASCII characters only')
            [CompletionResult]::new('--no-archive', '--no-archive', [CompletionResultType]::ParameterName, 'Leave out the archive''s sessions')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print less: no status messages, no hints')
            [CompletionResult]::new('--no-pager', '--no-pager', [CompletionResultType]::ParameterName, 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'ysess;help' {
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'Show the conversation that led to an entry, newest first')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List every session on this machine, newest activity first')
            [CompletionResult]::new('archive', 'archive', [CompletionResultType]::ParameterValue, 'Keep a copy of every session, before the agents delete or rewrite them')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one entry in full')
            [CompletionResult]::new('branch', 'branch', [CompletionResultType]::ParameterValue, 'List, create, rename or delete branches')
            [CompletionResult]::new('tag', 'tag', [CompletionResultType]::ParameterValue, 'Label an entry (a checkpoint), or list labels')
            [CompletionResult]::new('checkout', 'checkout', [CompletionResultType]::ParameterValue, 'Move HEAD to an entry, so that an agent resumes there')
            [CompletionResult]::new('resume', 'resume', [CompletionResultType]::ParameterValue, 'Go on with a session in its own agent, from any entry')
            [CompletionResult]::new('append', 'append', [CompletionResultType]::ParameterValue, 'Append messages below HEAD, as an agent would')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Print a path''s messages, ready for an agent to resume with')
            [CompletionResult]::new('diff', 'diff', [CompletionResultType]::ParameterValue, 'Compare two directions of a conversation')
            [CompletionResult]::new('fsck', 'fsck', [CompletionResultType]::ParameterValue, 'Check that session files load in yoagent, and more')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Say where HEAD is, and how the file stands')
            [CompletionResult]::new('reflog', 'reflog', [CompletionResultType]::ParameterValue, 'List every HEAD move ysess recorded, newest first')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Search the text of a session''s messages')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Account for the turns: tokens, cost, tool calls, models, time')
            [CompletionResult]::new('tui', 'tui', [CompletionResultType]::ParameterValue, 'Browse a session''s tree and its chat, as tig browses a repository')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'ysess;help;log' {
            break
        }
        'ysess;help;ls' {
            break
        }
        'ysess;help;archive' {
            break
        }
        'ysess;help;show' {
            break
        }
        'ysess;help;branch' {
            break
        }
        'ysess;help;tag' {
            break
        }
        'ysess;help;checkout' {
            break
        }
        'ysess;help;resume' {
            break
        }
        'ysess;help;append' {
            break
        }
        'ysess;help;export' {
            break
        }
        'ysess;help;diff' {
            break
        }
        'ysess;help;fsck' {
            break
        }
        'ysess;help;status' {
            break
        }
        'ysess;help;reflog' {
            break
        }
        'ysess;help;grep' {
            break
        }
        'ysess;help;stats' {
            break
        }
        'ysess;help;tui' {
            break
        }
        'ysess;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
