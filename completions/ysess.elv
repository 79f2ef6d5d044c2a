
use builtin;
use str;

set edit:completion:arg-completer[ysess] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'ysess'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'ysess'= {
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -s 'The session to use instead of -f: a unique start of its id or file name, `latest` (the session written last) or `latest~N`, found where `ysess ls` looks (before the command''s name: `export --session` is export''s own)'
            cand --session 'The session to use instead of -f: a unique start of its id or file name, `latest` (the session written last) or `latest~N`, found where `ysess ls` looks (before the command''s name: `export --session` is export''s own)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand log 'Show the conversation that led to an entry, newest first'
            cand ls 'List every session on this machine, newest activity first'
            cand show 'Show one entry in full'
            cand branch 'List, create, rename or delete branches'
            cand tag 'Label an entry (a checkpoint), or list labels'
            cand checkout 'Move HEAD to an entry, so that an agent resumes there'
            cand resume 'Go on with a session in its own agent, from any entry'
            cand append 'Append messages below HEAD, as an agent would'
            cand export 'Print a path''s messages, ready for an agent to resume with'
            cand diff 'Compare two directions of a conversation'
            cand fsck 'Check that session files load in yoagent, and more'
            cand status 'Say where HEAD is, and how the file stands'
            cand reflog 'List every HEAD move ysess recorded, newest first'
            cand grep 'Search the text of a session''s messages'
            cand stats 'Account for the turns: tokens, cost, tool calls, models, time'
            cand tui 'Browse a session''s tree and its chat, as tig browses a repository'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ysess;log'= {
            cand -n 'Show at most N entries (`-N` too, as in git: `log -3`)'
            cand --max-count 'Show at most N entries (`-N` too, as in git: `log -3`)'
            cand --format 'Print each entry with this template, e.g. ''{id} {subject}'''
            cand --grep 'Only entries whose message text matches PATTERN (a regular expression; repeat it for any of several, see --all-match)'
            cand --role 'Only entries of this role (repeatable)'
            cand --tool 'Only assistant messages that call the tool NAME, and its results'
            cand --model 'Only assistant messages of the model NAME'
            cand --since 'Only entries at or after this time (2025-12-02, ''2025-12-02 09:03'', yesterday, ''3 days ago''; local time)'
            cand --until 'Only entries at or before this time (the forms of --since)'
            cand --min-tokens 'Only assistant messages whose usage (input, output, cache read and write tokens) adds up to at least N'
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand --oneline 'One line per entry: id, decorations, role and subject'
            cand --reverse 'Oldest first'
            cand --all 'Every entry of every branch, not just one path (so no REV)'
            cand --graph 'Draw the tree (all of it, unless a REV is given)'
            cand --ascii 'Draw the graph with ASCII characters only (with --graph)'
            cand -z 'End each entry with NUL instead of a newline'
            cand --json 'The entries as stored, one JSON object per line'
            cand --markers 'Also show ysess''s own bookkeeping records (hidden by default)'
            cand --all-match 'With several --grep: entries that match all of them'
            cand -i 'With --grep: ignore case'
            cand --regexp-ignore-case 'With --grep: ignore case'
            cand -F 'With --grep: fixed strings, not regular expressions'
            cand --fixed-strings 'With --grep: fixed strings, not regular expressions'
            cand --labelled 'Only entries a label names'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;ls'= {
            cand --since 'Only sessions active at or after this time (2025-12-02, yesterday, ''3 days ago''; local time)'
            cand --until 'Only sessions started at or before this time (the forms of --since)'
            cand --agent 'Only the sessions of this agent''s format (repeatable)'
            cand --project 'Only sessions whose project (the folder the agent worked in) contains TEXT'
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand --json 'One JSON object per session, then a total'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;show'= {
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand --json 'Each entry as stored, one JSON object per line'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;branch'= {
            cand -d 'Delete a branch''s name (its entries stay)'
            cand --delete 'Delete a branch''s name (its entries stay)'
            cand -m 'Rename a branch'
            cand --move 'Rename a branch'
            cand --contains 'Only branches whose path contains REV'
            cand --format 'Print each branch with this template, e.g. ''{name}{tab}{tokens_out}'''
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand -F 'Start the branch again even if the name exists'
            cand --force 'Start the branch again even if the name exists'
            cand -v 'Also show each branch''s tip, fork point, length and last message'
            cand --verbose 'Also show each branch''s tip, fork point, length and last message'
            cand --json 'One JSON object per branch'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;tag'= {
            cand -d 'Delete a label (refused: see the message)'
            cand --delete 'Delete a label (refused: see the message)'
            cand -l 'Only labels matching PATTERN (`*` any text, `?` one character, `[abc]` one of those)'
            cand --list 'Only labels matching PATTERN (`*` any text, `?` one character, `[abc]` one of those)'
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand -F 'Set the label even if it names another entry already'
            cand --force 'Set the label even if it names another entry already'
            cand -n 'Also show the first line of each label''s entry'
            cand --json 'One JSON object per label'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;checkout'= {
            cand -b 'Start a branch called NAME at REV and move HEAD onto it'
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;resume'= {
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand --print 'Print the command (one shell-quoted line, after `cd` to the working directory) instead of running it; a new session file it needs is written all the same'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;append'= {
            cand --user 'A user message with this text (instead of JSON on standard input)'
            cand --parent 'Append below REV instead of HEAD'
            cand --label 'Label the last new entry (a checkpoint)'
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand --create 'Start a new session when the file is missing or empty (otherwise an empty file is refused: an app saving it whole empties it first)'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;export'= {
            cand -o 'Write to FILE instead of standard output (replaced whole, once done; never the session file)'
            cand --output 'Write to FILE instead of standard output (replaced whole, once done; never the session file)'
            cand --parquet 'Write sessions as Parquet tables into the folder OUT: every entry, tree and session, for DuckDB, Spark or Trino (see the README)'
            cand --since-manifest 'With --parquet: only the lines appended since the manifest OLD (`fsck --manifest` or `export --manifest` wrote it); a file that no longer starts with what OLD says is refused'
            cand --manifest 'With --parquet: write a manifest of every file exported to MANIFEST, for the next --since-manifest'
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand --session 'Write the path as a linear session file (JSON Lines)'
            cand --html 'Write one HTML page of the whole tree (with REV: of its path)'
            cand --markdown 'Write the path as Markdown'
            cand --all 'With --parquet: every session `ysess ls` finds'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;diff'= {
            cand -U 'Lines of context around each change'
            cand --unified 'Lines of context around each change'
            cand --files 'Compare two copies of a session file (OLD NEW) entry by entry'
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand --stat 'Per side: turns by role, tokens in and out, tool calls by name'
            cand --summary 'One line per turn: `+ e42 assistant: …`'
            cand --word-diff 'Show changed words inline ([-old-]{+new+}) instead of lines'
            cand --color-words 'Show changed words inline, in colour'
            cand --exit-code 'Exit 1 when the sides differ, 0 when not'
            cand --json 'The fork point, the aligned turns and the stats as JSON'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;fsck'= {
            cand --since 'Check the file only grew since a digest (from --digest) or an old copy'
            cand --glob 'Which files a directory''s walk checks, by name (or by path below the directory, when the glob holds a `/`); repeat for several [default: *.jsonl]'
            cand --since-rev 'Prove that every session file at git revision COMMIT (any name git knows: a branch, a tag, HEAD~3) only grew since: old versions are read through git; deleted, shortened or rewritten files are errors'
            cand --manifest 'Write each file''s digest to OUT, one JSON line per file'
            cand --since-manifest 'Prove that every file a manifest (from --manifest) lists only grew since; missing files are errors'
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand --strict 'Treat warnings as errors for the exit status'
            cand -v 'Print a summary line per file: entries, roots, tips, labels, HEAD'
            cand --verbose 'Print a summary line per file: entries, roots, tips, labels, HEAD'
            cand --json 'Print findings and summaries as JSON Lines on stdout'
            cand --repair 'Cut a torn last line (an interrupted write), saving its bytes beside the file as FILE.torn-OFFSET; nothing else is ever changed'
            cand --digest 'Print each file''s digest, sha256:<hex>:<bytes>, on stdout'
            cand --allow-empty 'Pass when the directories hold no session file at all (by default that fails, so that a wrong path does not pass as a clean fleet)'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;status'= {
            cand --digest 'A digest from `ysess fsck --digest` (sha256:<hex>:<bytes>), or a file holding one, to tell whether the file changed since'
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand --json 'One JSON object'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;reflog'= {
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand --json 'One JSON object per move'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;grep'= {
            cand --context 'Show N lines of context around each match, within its block (`-C` is the global option that changes directory)'
            cand --role 'Only messages of this role (repeatable)'
            cand --tool 'Only the calls of the tool NAME (its name and arguments) and its results'
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand -F 'PATTERN is a fixed string, not a regular expression'
            cand --fixed-strings 'PATTERN is a fixed string, not a regular expression'
            cand -i 'Ignore case'
            cand --ignore-case 'Ignore case'
            cand -w 'Match whole words only'
            cand --word-regexp 'Match whole words only'
            cand -l 'Print only the ids of the entries that match'
            cand --list 'Print only the ids of the entries that match'
            cand -c 'Print each matching entry''s id and its number of matching lines'
            cand --count 'Print each matching entry''s id and its number of matching lines'
            cand --json 'One JSON object per match: id, line, role, block, kind, tool, start, end, text (with --all, also session and path)'
            cand --all 'Search every session, not only the session file'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;stats'= {
            cand --by 'Group by branch (or revision), model, tool, day, week or month; with --all also by session (the default), project or agent'
            cand --since 'With --all: only entries at or after this time (2025-12-02, yesterday, ''3 days ago''; local time)'
            cand --until 'With --all: only entries at or before this time (the forms of --since)'
            cand --tz 'The time zone of days, weeks and months: a name of the zone database (Europe/Berlin, UTC) [default: the local zone]'
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand --all 'Every session, not only the session file''s'
            cand --json 'One JSON object per group, then the total'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;tui'= {
            cand -f 'The session file (`-` reads standard input)'
            cand --file 'The session file (`-` reads standard input)'
            cand -C 'Run as if started in DIR'
            cand --color 'When to use colours (`auto` honours NO_COLOR)'
            cand --format-of 'Read the session file as this format, whatever its first lines show (by default: the format its first lines show, else yoagent''s)'
            cand --all 'Start from the list of every session `ysess ls` finds'
            cand --ascii 'Draw the graph with ASCII characters only'
            cand -q 'Print less: no status messages, no hints'
            cand --quiet 'Print less: no status messages, no hints'
            cand --no-pager 'Never page the output (on a terminal it goes through $YSESS_PAGER, else $PAGER, else `less -FRX`)'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'ysess;help'= {
            cand log 'Show the conversation that led to an entry, newest first'
            cand ls 'List every session on this machine, newest activity first'
            cand show 'Show one entry in full'
            cand branch 'List, create, rename or delete branches'
            cand tag 'Label an entry (a checkpoint), or list labels'
            cand checkout 'Move HEAD to an entry, so that an agent resumes there'
            cand resume 'Go on with a session in its own agent, from any entry'
            cand append 'Append messages below HEAD, as an agent would'
            cand export 'Print a path''s messages, ready for an agent to resume with'
            cand diff 'Compare two directions of a conversation'
            cand fsck 'Check that session files load in yoagent, and more'
            cand status 'Say where HEAD is, and how the file stands'
            cand reflog 'List every HEAD move ysess recorded, newest first'
            cand grep 'Search the text of a session''s messages'
            cand stats 'Account for the turns: tokens, cost, tool calls, models, time'
            cand tui 'Browse a session''s tree and its chat, as tig browses a repository'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'ysess;help;log'= {
        }
        &'ysess;help;ls'= {
        }
        &'ysess;help;show'= {
        }
        &'ysess;help;branch'= {
        }
        &'ysess;help;tag'= {
        }
        &'ysess;help;checkout'= {
        }
        &'ysess;help;resume'= {
        }
        &'ysess;help;append'= {
        }
        &'ysess;help;export'= {
        }
        &'ysess;help;diff'= {
        }
        &'ysess;help;fsck'= {
        }
        &'ysess;help;status'= {
        }
        &'ysess;help;reflog'= {
        }
        &'ysess;help;grep'= {
        }
        &'ysess;help;stats'= {
        }
        &'ysess;help;tui'= {
        }
        &'ysess;help;help'= {
        }
    ]
    $completions[$command]
}
