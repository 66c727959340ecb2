<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name></name>
    <message>
        <source>tool call %1: recorded %2, now %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the arguments of tool call %1 (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the id of tool call %1 (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the provider data of tool call %1 (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recorded as %1, now %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recorded an error, now a success</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recorded a success, now an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it answers call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the tool it names: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recorded %1 tool calls, now %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the tools differ: recorded %1; now %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the description of tool %1 differs: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the parameters of tool %1 differ: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model differs: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the temperature differs: recorded %1, now %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the output token limit differs: recorded %1, now %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the attachments: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top p differs: recorded %1, now %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AgentRoster</name>
    <message>
        <source>%1 must be 1 to 48 letters, digits, _ or - (it becomes part of tool names); it is %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no agent &quot;%1&quot; (the agents are %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not JSON: %1 at offset %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file must hold an object with an &quot;agents&quot; array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown field &quot;%1&quot; (the file holds only &quot;agents&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agents is empty: name at least one agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has an unknown field &quot;%2&quot; (known: %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read the agents file &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the agents file &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>two agents are named &quot;%1&quot;: names must be unique</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent &quot;%1&quot; hands off to &quot;%2&quot;, which is not an agent of the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent &quot;%1&quot; hands off to itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent &quot;%1&quot; has the sub-agent &quot;%2&quot;, which is not an agent of the file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sub-agents form a cycle: %1 (an agent must not reach itself through sub-agents)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the agent has an unknown field &quot;%1&quot; (known: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1[%2] must name an MCP server after &quot;mcp:&quot; (every tool of that server), without spaces around the name; it is %3.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>AnthropicProtocol</name>
    <message>
        <source>not a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider sent a malformed &quot;%1&quot; event (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider reported an error in the stream: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stream ended before the response was complete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider reported an error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider&apos;s response has no content.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ApprovalCard</name>
    <message numerus="yes">
        <source>%1 — new file, %n line(s)</source>
        <translation type="vanished">
            <numerusform>%1 — new file, %n line</numerusform>
            <numerusform>%1 — new file, %n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n line(s) changed (+%2 −%3)</source>
        <translation type="vanished">
            <numerusform>%1 — %n line changed (+%2 −%3)</numerusform>
            <numerusform>%1 — %n lines changed (+%2 −%3)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>In &lt;b&gt;%1&lt;/b&gt;, stopped after %n second(s)</source>
        <translation type="vanished">
            <numerusform>In &lt;b&gt;%1&lt;/b&gt;, stopped after %n second</numerusform>
            <numerusform>In &lt;b&gt;%1&lt;/b&gt;, stopped after %n seconds</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AtomicFile</name>
    <message>
        <source>the data could not be written whole</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file is read-only</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ChatView</name>
    <message numerus="yes">
        <source>Show %n earlier turn(s)</source>
        <translation type="vanished">
            <numerusform>Show %n earlier turn</numerusform>
            <numerusform>Show %n earlier turns</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>CommandLineSyntax</name>
    <message>
        <source>Show this help.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>CompareDialog</name>
    <message numerus="yes">
        <source>This session (%n turn(s))</source>
        <translation type="vanished">
            <numerusform>This session (%n turn)</numerusform>
            <numerusform>This session (%n turns)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n turn(s))</source>
        <translation type="vanished">
            <numerusform>%1 (%n turn)</numerusform>
            <numerusform>%1 (%n turns)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ComparedSession</name>
    <message>
        <source>%1, turn %2</source>
        <extracomment>Where a compared turn is from: a session&apos;s name and the turn&apos;s number</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <extracomment>A session in a comparison: its title and when it was last updated</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session&apos;s trace is malformed.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ConnectionTester</name>
    <message numerus="yes">
        <source>Connected: %n model(s) on offer.</source>
        <translation type="vanished">
            <numerusform>Connected: %n model on offer.</numerusform>
            <numerusform>Connected: %n models on offer.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Connected, but “%1” is not among the %n model(s) the server lists: check the model name.</source>
        <translation type="vanished">
            <numerusform>Connected, but “%1” is not among the %n model the server lists: check the model name.</numerusform>
            <numerusform>Connected, but “%1” is not among the %n models the server lists: check the model name.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ContextOptions</name>
    <message>
        <source>The share of the context window, in percent, over which a request is compacted (default %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--context-window takes a number of tokens from 1 to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--compact takes %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--compact-at takes a percentage from 1 to 100</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model&apos;s context window in tokens; wins over the provider profile&apos;s, the provider&apos;s own (Ollama&apos;s /api/show, Gemini&apos;s model information) and the price table&apos;s. Ollama is sent it as num_ctx, uncapped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When a request would fill the context window: auto (trim old tool results, summarise older turns if that is not enough, drop the oldest turns last), trim-tool-results, summarise (turns before the last two, by a model call), drop-oldest or off. A request that still does not fit is refused before it is sent. Default: auto.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model that writes a compaction&apos;s summary (default: the turn&apos;s own model).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--compact-model takes a model name</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DebugPanel</name>
    <message numerus="yes">
        <source>%n more call(s) held: Step lets them go one at a time.</source>
        <translation type="vanished">
            <numerusform>%n more call held: Step lets them go one at a time.</numerusform>
            <numerusform>%n more calls held: Step lets them go one at a time.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Valid: %n message(s).</source>
        <translation type="vanished">
            <numerusform>Valid: %n message.</numerusform>
            <numerusform>Valid: %n messages.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DiffCommand</name>
    <message numerus="yes">
        <source>&quot;%1&quot; has %n turn(s), not %2</source>
        <translation>
            <numerusform>&quot;%1&quot; has %n turn, not %2</numerusform>
            <numerusform>&quot;%1&quot; has %n turns, not %2</numerusform>
        </translation>
    </message>
    <message>
        <source>Compare a turn of two saved sessions step by step: iterations, model requests (messages and
parameters), tool calls and arguments, results and answers, aligned; tokens, time and cost are
shown but never count as a difference. Prints a summary line, e.g. &quot;diverged at iteration 2:
calculator arguments differ&quot;, then the steps:
  =  the same       !  different     &lt;  only in A     &gt;  only in B
  ~  tokens, time, cost (shown, not compared)          *  the first difference

Exit codes:
  0  the turns are the same
  1  they differ
  2  bad usage, an unreadable or malformed file, or no such turn
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The turn to compare (from 1, as replay lists them; default: the last), in both sessions unless --turn-b is given.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The turn of B to compare (default: as --turn).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A saved session (*.loopscope.json).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another saved session, or the same one with --turn-b.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give two saved session files (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--turn and --turn-b take a turn number from 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; has no turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ElicitationCard</name>
    <message numerus="yes">
        <source>%1 needs at least %n character(s).</source>
        <translation type="vanished">
            <numerusform>%1 needs at least %n character.</numerusform>
            <numerusform>%1 needs at least %n characters.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>EvalCaseResult</name>
    <message>
        <source>outcome: %1, iterations: %2
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error: %1
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>answer:
%1
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool calls:
%1
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>session: %1
</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EvalCommand</name>
    <message>
        <source>Run a suite of loop regression tests: each line of SUITE.jsonl is a case, a prompt for a
live model or a recorded session to replay without a network, with expectations on the
answer, the tool calls and the iterations. Prints PASS, FAIL or ERROR and the first unmet
expectation per case, then a summary; --junit writes a JUnit XML report for CI.
The provider options are the default for cases that name no provider or model. Nobody is
there to ask: built-in tools run unless a case says &quot;approve&quot;: &quot;none&quot;. API keys are
read from environment variables, never from the command line or the suite.

Exit codes:
  0    every case passed
  1    at least one case failed or could not be judged (an error)
  2    bad usage: unknown option or value, a malformed suite (the line is named), a
       missing API key, an unwritable report or folder
  130  cancelled by SIGINT (Ctrl+C) or SIGTERM; the report lists the cases not run
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in the case (&quot;model&quot;): it names its own provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in the case (&quot;model&quot;) or with --model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: line %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no API key: set the environment variable %1, or name another with &quot;api_key_env&quot; or --api-key-env</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write a JUnit XML report to this file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run up to n cases at once (default 1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop a case after this many seconds; it is then an error (default 300).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save each case&apos;s session (*.loopscope.json, named after the case) into this folder, to open a failing one in the app.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The suite: one JSON object per line.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give exactly one suite file (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--jobs takes a number from 1 to 64</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--timeout takes a number of seconds from 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write the report to &quot;%1&quot;: its folder does not exist</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot create the folder &quot;%1&quot; for the sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write the report to &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;agent&quot;: %1 names an agent of an agents file: give the case &quot;agents&quot; or run the suite with --agents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent &quot;%1&quot; has the tool &quot;%2&quot;, which is not built in (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An agents file (JSON, see the README) for the suite&apos;s live cases: a case runs as its &quot;agent&quot;, else as the file&apos;s first; a case&apos;s own &quot;agents&quot; wins.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent &quot;%1&quot; has every tool of the MCP server &quot;%2&quot;, and eval runs no MCP servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;retrieve&quot;: &quot;auto&quot; needs a knowledge base to search (&quot;knowledge&quot;, or an agent&apos;s)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EvalObservation</name>
    <message>
        <source>%1 %2 -&gt; %3%4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (error)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EvalSuite</name>
    <message>
        <source>&quot;expect&quot; must be a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> in &quot;expect&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown outcome &quot;%1&quot; (known: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;reproduced&quot; is for cases that replay a session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read the session &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot replay the session &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the session &quot;%1&quot; has no turns to replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the session &quot;%1&quot; has %2 turns, not %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>turn %1 of the session &quot;%2&quot; cannot be replayed: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a case needs a &quot;name&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a case that replays a session takes its prompt, provider, tools and limits from the recording: leave out &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is for cases that replay a session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a case needs a &quot;prompt&quot;, or a &quot;session&quot; to replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown tool &quot;%1&quot;: the built-in tools are %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;approve&quot; takes &quot;all&quot; or &quot;none&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the workspace &quot;%1&quot; is not a folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read the suite &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no such file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not JSON: %1 at column %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a case must be a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a case named &quot;%1&quot; came before: names must be unique</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>line %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the suite has no cases: write one JSON object per line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;compact&quot; takes &quot;auto&quot;, &quot;trim-tool-results&quot;, &quot;drop-oldest&quot; or &quot;off&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;retrieve&quot; takes &quot;tool&quot; or &quot;auto&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;agents&quot;: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;agent&quot;: there is no agent named &quot;%1&quot; in its agents file</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>EvalSummary</name>
    <message>
        <source>%1 passed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 not run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 (%3 s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 case</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cases</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExpectationEvaluator</name>
    <message>
        <source>%1 is %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it has no %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its arguments are not a JSON object: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 matching /%2/</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 = %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the turn ended without an answer (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the turn ended as %1, expected %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the answer does not contain %1 (answer: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the answer does not match /%1/ (answer: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not called (no tool was called)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not called (called: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was never called with %2 (%3; in the first, %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was called, expected not to be (%2; the first with %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the turn took %1 iterations, expected at most %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 returned an error: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cost expectations need prices: not every model call of this turn has a known price (set prices in the provider profile or the suite&apos;s model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the turn cost $%1, expected at most $%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no passage from &quot;%1&quot; was retrieved: the turn found no passage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no passage from &quot;%1&quot; was retrieved (found: %2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExportCommand</name>
    <message>
        <source>Export a saved session (*.loopscope.json) as Markdown, standalone HTML, or its trace as OpenTelemetry GenAI spans in OTLP/JSON.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>md, html or otlp.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write to this file instead of stdout.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With otlp: include messages, tool arguments and results (opt-in in the GenAI conventions).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session to export.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--format takes md, html or otlp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name exactly one session file (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot export the trace of %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write to stdout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FileSecretStore</name>
    <message>
        <source>The key file %1 can be read or changed by other users, so Loopscope does not use it: make it yours alone (chmod 600 %1) or remove it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key file %1 could not be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key file %1 is damaged, so its keys cannot be read; it is left as it is. Move it aside and enter the keys again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder %1 could not be created.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key file %1 could not be written: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FirstRunPanel</name>
    <message numerus="yes">
        <source>An Ollama server is running at %1 with %n model(s). Use it to start chatting now, or add another provider in Settings.</source>
        <translation type="vanished">
            <numerusform>An Ollama server is running at %1 with %n model. Use it to start chatting now, or add another provider in Settings.</numerusform>
            <numerusform>An Ollama server is running at %1 with %n models. Use it to start chatting now, or add another provider in Settings.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>HeadlessSetup</name>
    <message>
        <source>this tool is not approved in this run (only %1 are, by --approve-tools)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool calls are not approved in this run (--approve none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not approved in this run: tools that write files, run commands or fetch URLs, and MCP tools, need an explicit --approve all or --approve-tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent &quot;%1&quot; searches the knowledge base &quot;%2&quot;: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 runs on the provider profile &quot;%2&quot;, which is not a saved profile (the profiles are: %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 runs on the provider profile &quot;%2&quot;: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model shield of agent &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>KnowledgeCommand</name>
    <message>
        <source>search: how many passages to print (default 5).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>search: print a JSON array of hits, best first, each with path, startLine, endLine, score and text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The base&apos;s name, then its paths or the question.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--top-k takes a whole number of at least 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no knowledge base named &apos;%1&apos; (see loopscope knowledge list)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removed the knowledge base &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the commands are add, index, list, remove and search (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wrong arguments for %1 (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>indexing: %1 of %2 files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No knowledge base yet (add one with loopscope knowledge add NAME PATH...).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, %1 skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No passage shares a word with the question.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: files indexed %2 (passages %3), unchanged %4, removed %5, skipped %6.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: files %2, passages %3, %4, last indexed %5%6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add NAME PATH...: define a knowledge base over folders and files, and index it.
index NAME: bring its index up to date (unchanged files are skipped; progress on stderr).
list: the bases with their files, passages, size and last indexing.
remove NAME: forget a base and delete its index (the documents stay).
search NAME QUESTION: the passages sharing the most of the question&apos;s words, by BM25; with an embedding model also the passages closest in meaning, the two rankings fused.

add --embedding-model MODEL embeds the passages with the provider that --provider, --base-url and --api-key-env name (as for loopscope run; the key is read from the environment at each index and search, never recorded). Without it the base is searched by its words only.

Exit codes:
  0    done
  1    indexing reported errors (a missing folder, a failed write), or the index failed
  2    bad usage: unknown option or command, an unknown or invalid base name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add: the model that embeds the passages (e.g. text-embedding-3-small, nomic-embed-text), recorded with the base; search is then hybrid.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--embedding-model, --provider, --base-url and --api-key-env belong to add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>with --embedding-model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic offers no embeddings: use --provider openai (also LM Studio, llama.cpp, vLLM, Ollama&apos;s /v1), ollama or gemini</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--provider, --base-url and --api-key-env describe where embeddings come from: name the model with --embedding-model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no knowledge base named &quot;%1&quot; (see loopscope knowledge list)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; the passages stay searchable by their words.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>embedding: %1 of %2 passages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: passages embedded %2 (%3 requests to &quot;%4&quot;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>embeddings: %1 (%2), passages embedded %3 of %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: %1; searching by the question&apos;s words only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>page %1:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>score %1 (BM25 %2, cosine %3)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LimitOptions</name>
    <message>
        <source>The most one answer from the provider or an MCP server may hold, in MB; a larger one fails the call (default %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The longest one provider request may take in all, in seconds, however steadily it streams (default %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--max-response-mb takes a number from 1 to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--request-timeout-s takes a number from 1 to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most tool calls one response may have run, from 1 to %1; the model is told that the calls after them were not run (default %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--max-tool-calls takes a number from 1 to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The longest one turn may take, in seconds, waits for a person not counted; then it stops with the outcome time_limit (exit 3). 0: none (default). An agent&apos;s time_limit_seconds is its own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--time-limit-s takes a number from 0 to %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Agent</name>
    <message>
        <source>The message was blocked: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Iteration %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools are disabled now. Answer the user from the tool results above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>chat %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry after attempt %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reflection call gave no answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model gave no answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not executed: the turn&apos;s token budget of %1 is used up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not executed: the iteration limit was reached and tools are disabled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The turn stopped: it used %1 tokens, over its budget of %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model asked for tools on the final iteration instead of answering.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handed off to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ignored: only the first handoff (%1) is followed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not executed: the conversation was handed off to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handoff to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handed off to %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The turn stopped after %1 iterations in a row in which every tool call failed. The last error: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reflection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loop ended on tool results and no reflection or summary is configured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[The answer was withheld by a safety check.]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer was blocked: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled by the user.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 check: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>The turn ends here: it reached its limit of %n handoff(s).</source>
        <translation>
            <numerusform>The turn ends here: it reached its limit of %n handoff.</numerusform>
            <numerusform>The turn ends here: it reached its limit of %n handoffs.</numerusform>
        </translation>
    </message>
    <message>
        <source>Compaction: %1 → %2 tokens</source>
        <extracomment>A trace node: the request&apos;s estimated tokens before and after a compaction</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent %1: %2</source>
        <extracomment>A sub-agent&apos;s part in the trace, under the tool call that asked it: its name and its task</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Compaction: summarising %n turn(s)</source>
        <extracomment>A trace node while a compaction&apos;s summary is written; %n: the turns it summarises</extracomment>
        <translation>
            <numerusform>Compaction: summarising %n turn</numerusform>
            <numerusform>Compaction: summarising %n turns</numerusform>
        </translation>
    </message>
    <message>
        <source>summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>summary %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model wrote an empty summary.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The summary could not be written: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be asked: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped before the verdict.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shield</source>
        <extracomment>A trace node: the model call a model shield made to judge a message</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>shield %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled by the user before the tool finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The turn stopped: it ran out of its time limit of %1 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped before the tool finished: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::AgentApplier</name>
    <message>
        <source>there is no knowledge base named &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent &quot;%1&quot; searches the knowledge base &quot;%2&quot;, which is left out: %3.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::AgentListModel</name>
    <message>
        <source>%1, version %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::AgentShields</name>
    <message>
        <source>%1 has an unknown field &quot;%2&quot; (known: %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 names the stage &quot;%2&quot;; the stages are %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is empty: name at least one stage</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must contain {conversation}, where the message to judge goes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must not be empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the shields must be a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must name a saved provider profile; leave it out for the session&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::AgentStore</name>
    <message>
        <source>it does not hold a &quot;history&quot; object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a version of &quot;%1&quot; is malformed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no version number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the agents&apos; history &quot;%1&quot; cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no agent &quot;%1&quot; to change</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is already an agent named &quot;%1&quot;: names must be unique</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no agent &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent &quot;%1&quot; hands off to &quot;%2&quot; or asks it: take it out of its handoffs and sub-agents first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there are no agents to export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>your agents could not be read, and are not written over: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the folder &quot;%1&quot; cannot be made</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot be written: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; cannot be removed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::AsyncTool</name>
    <message>
        <source>%1 answers only asynchronously: start it instead of invoking it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::AttachmentLoader</name>
    <message>
        <source>Cannot attach &apos;%1&apos;: the file does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach &apos;%1&apos;: it is not a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach &apos;%1&apos;: it is %2 bytes, over the limit of %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach &apos;%1&apos;: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach &apos;%1&apos;: it is over the limit of %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach &apos;%1&apos;: the %2 image is corrupt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach &apos;%1&apos;: the %2 image is corrupt (%3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach &apos;%1&apos;: the PDF is corrupt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach &apos;%1&apos;: the PDF is password-protected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach &apos;%1&apos;: the PDF has no text layer (a scan?). Loopscope sends a PDF&apos;s text, and this one has none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach &apos;%1&apos;: it is %2 (%3), not an image (PNG, JPEG, WebP, GIF), a text file or a PDF.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>

[Truncated by Loopscope: only the first %1 of its %2 characters are attached.]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot attach &apos;%1&apos;: it is text, but not UTF-8 (Latin-1 or another older encoding?). Save it as UTF-8 and attach it again.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::AttachmentParts</name>
    <message>
        <source>The image &apos;%1&apos; (%2, %3) is over what the provider takes, and Loopscope cannot scale it here: %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The image &apos;%1&apos; (%2, %3) is over what the provider takes, and scaling it down did not bring it within %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>from %1×%2 %3, %4 (sha256 %5)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::AttachmentText</name>
    <message>
        <source>%1 image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 × %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Autosaver</name>
    <message>
        <source>Could not create the session folder &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not autosave the session to &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not create the session folder &quot;%1&quot;: %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ChatSession</name>
    <message>
        <source>The provider cannot change while a turn runs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped before the key was read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session&apos;s trace is malformed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A turn is running; stop it before opening another session.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is nothing to fork yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the turn is not in the conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot fork here: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot replay: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no turn to replay yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not make the workspace folder &quot;%1&quot;%2. The file tools cannot work until it exists or another folder is chosen in Settings → Tools.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model %1 is known to read text only, and the message has an image: choose a model that reads images, leave the image out, or send it anyway.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider profile &quot;%1&quot; does not exist: add it in Settings → Providers, or choose another for the model shield.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ClientAssertion</name>
    <message>
        <source>the signing algorithm “%1” is not supported (ES256 or RS256)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the private key is not a PEM private key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the private key does not fit the algorithm %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the assertion could not be signed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ConnectionTester</name>
    <message>
        <source>Connected, but no model is installed: pull one with “ollama pull”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected, but the server lists no models.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Connected: %n model(s) on offer.</source>
        <translation>
            <numerusform>Connected: %n model on offer.</numerusform>
            <numerusform>Connected: %n models on offer.</numerusform>
        </translation>
    </message>
    <message>
        <source>Connected: %1 is available.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Connected, but “%1” is not among the %n model(s) the server lists: check the model name.</source>
        <translation>
            <numerusform>Connected, but “%1” is not the %n model the server lists: check the model name.</numerusform>
            <numerusform>Connected, but “%1” is not among the %n models the server lists: check the model name.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Loopscope::ContextFitter</name>
    <message>
        <source>[This result of %1 (call %2) was removed to fit the context window: about %3 tokens. Call the tool again if you need it.]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This request needs about %1 tokens, and the model&apos;s context window holds %2.</source>
        <extracomment>%1: estimated tokens of the request, %2: the model&apos;s context window in tokens</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Even after compaction it does not fit: what is left is the question being answered and the results the model has not read yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a new session or fork from an earlier message, or, if the model takes more, set its window (--context-window N, or the provider profile&apos;s Context window).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Earlier in this conversation (%n turn(s), summarised to fit the context window):
%1</source>
        <extracomment>The system message&apos;s note that carries a compaction&apos;s summary. %n: the turns it covers.</extracomment>
        <translation>
            <numerusform>Earlier in this conversation (%n turn, summarised to fit the context window):
%1</numerusform>
            <numerusform>Earlier in this conversation (%n turns, summarised to fit the context window):
%1</numerusform>
        </translation>
    </message>
    <message>
        <source>What the conversation said before these messages, summarised:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The messages to summarise:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result of %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant called %1 with %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[attached: %1]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[The later messages did not fit in this request and are left out.]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compaction is off, so nothing was left out: turn it on (--compact auto, or the loop settings) to trim old tool results, summarise older turns and drop the oldest ones.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ContextGauge</name>
    <message>
        <source>%1%2 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1%2 / %3 tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The next request is about %1 tokens, more than the model&apos;s context window of %2: the provider may refuse it or drop the oldest messages. Start a new session or fork from an earlier turn.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The next request is about %1 tokens, %2% of the model&apos;s context window of %3.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ConversationRows</name>
    <message>
        <source>No result was recorded for this call.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>*The answer was withheld by a safety check.*</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The turn ended before the tool finished.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::EditFileTool</name>
    <message>
        <source>&apos;%1&apos; does not exist; edit_file changes existing files, use write_file to create one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; is larger than the %2 bytes edit_file handles.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open &apos;%1&apos;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not valid UTF-8 text; edit_file only edits UTF-8 files, so that no character is changed by accident.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing changed in &apos;%1&apos;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edited &apos;%1&apos;: replaced 1 occurrence (line %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edited &apos;%1&apos;: replaced %2 occurrences (lines %3%4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> and %1 more</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::EmbeddingsClient</name>
    <message>
        <source>Anthropic offers no embeddings: choose an OpenAI-compatible provider, Ollama or Gemini for the embedding model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No network to reach the embeddings endpoint.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The embeddings endpoint %1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The embeddings endpoint answered %1 vectors for %2 passages.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The embeddings endpoint returned a vector of %1 dimensions for passage %2, not %3: the model &quot;%4&quot; does not give the vectors this index holds.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::EvalCaseRun</name>
    <message>
        <source>the turn could not start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the replay could not start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>timed out after %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot save the session to &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::EvalSuite</name>
    <message>
        <source>unknown field &quot;%1&quot;%2 (known: %3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be a non-empty string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be a whole number from %2 to %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be a number of at least 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be true or false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be a non-empty string or a list of them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a valid regular expression: %2 at offset %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;matches&quot; of the argument &quot;%1&quot; must be a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; must be a list of tool names or {&quot;name&quot;, &quot;arguments&quot;} objects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> in &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the &quot;arguments&quot; of an entry of &quot;%1&quot; must be a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every entry of &quot;%1&quot; needs a tool name</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ExportFileText</name>
    <message>
        <source>The trace cannot be exported: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be written: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ExportText</name>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recovered by retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retrying did not help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context nearly full</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loopscope session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Models</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Providers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in, %2 out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost per turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments (not valid JSON)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No result was recorded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result of %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported from Loopscope.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Models:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Providers:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updated:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turns:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result (error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments are not valid JSON:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compacted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attached: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attached:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::FetchUrlTool</name>
    <message>
        <source>No complete response within %1 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fetch_url lost its network access.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The fetch of &apos;%1&apos; was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only http and https URLs can be fetched, not &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The URL &apos;%1&apos; has no host.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The host &apos;%1&apos; could not be resolved: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refused: &apos;%1&apos; resolves to %2, a loopback or private network address. fetch_url only reaches public addresses unless the user allows private ones in the settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request to &apos;%1&apos; failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redirect loop: &apos;%1&apos; redirects back to &apos;%2&apos;, which was already visited.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too many redirects: more than %1, the last to &apos;%2&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>of unknown size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 KiB (%2 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URL: %1
Status: %2 %3
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redirected from: %1 (redirects followed: %2)
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Content-Type: %1
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[the response is %1%2, %3; fetch_url shows only text, HTML and JSON, so its content is not shown]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[the response has no content type and looks binary, %1; not shown]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title: %1
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[empty response]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
[truncated: only the first %1 KiB were read; ask for more with max_kb]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an http:// or https:// URL; only those can be fetched.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fetch_url has no network access here.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::GeminiProtocol</name>
    <message>
        <source>Gemini reported an error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini blocked the prompt (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini blocked the prompt (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini sent a malformed stream event (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stream ended before Gemini finished the response.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gemini&apos;s response has no candidates.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::HttpModelClient</name>
    <message>
        <source>the API key was rejected (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rate limited (429)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not found (404): check the base URL and the model name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the provider refused the request (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the provider is overloaded (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the provider failed (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unexpected HTTP status %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not connect to %1 within %2 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the provider sent nothing for %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stream stopped: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection was cut while the response arrived: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not reach %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer took longer than the request time limit of %1 s (Settings → Loop, --request-timeout-s); it was not retried.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer came slower than the minimum rate of %1 bytes in %2 s; it was not retried.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The answer was larger than the response size limit of %1 MB (Settings → Loop, --max-response-mb); it was cut and not retried.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — retrying in %2 s (attempt %3 of %4)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::HttpTransport</name>
    <message>
        <source>the response ended without an answer to the request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP %1 again after %2 sign-ins: giving up on this request</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::JsonBodyDecoder</name>
    <message>
        <source>it is an array or a value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1&apos;s response is not a JSON object (%2).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::JsonFields</name>
    <message>
        <source>null</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>true or false</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be %2, not %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a whole number from %2 to %3; it is %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a number from %2 to %3; it is %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an array of strings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an array of objects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be one of %2; it is %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a date and time in ISO 8601 with its zone, such as 2024-05-01T09:30:00.000Z; it is %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is only allowed on %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::JsonRpcConnection</name>
    <message>
        <source>no answer to %1 within %2 s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::KnowledgeAttachment</name>
    <message>
        <source>the knowledge base &apos;%1&apos; is embedded with &quot;%2&quot;, whose key is read from the environment variable %3, which is not set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no knowledge base named &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::KnowledgeBasesModel</name>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The knowledge base &apos;%1&apos; was written but cannot be read back.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no knowledge base named &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; the passages stay searchable by their words.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge base &apos;%1&apos;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; does not exist (any more); what was indexed from it is kept.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::KnowledgeContextSource</name>
    <message>
        <source>Passages from your knowledge bases, found for the user&apos;s question (cite the files you draw on; knowledge_search finds more):

%1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::KnowledgeEmbedder</name>
    <message>
        <source>The knowledge base&apos;s index &apos;%1&apos; is being written by another process.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The passages were embedded with the model &quot;%1&quot;, and this base now uses &quot;%2&quot;: every passage is embedded again (vectors of two models cannot be compared).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 The base is still searched by its words; %2 passages have no vector yet, and the next indexing embeds them.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::KnowledgeIndex</name>
    <message>
        <source>Qt&apos;s SQLite driver (QSQLITE) is not installed; on Debian it is the package libqt6sql6-sqlite.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the index &apos;%1&apos;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot remove &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The index &apos;%1&apos; failed (%2): %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The index &apos;%1&apos; was damaged; it has been rebuilt empty and is filled again by the next indexing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The index &apos;%1&apos; has schema version %2, this Loopscope uses %3; it has been rebuilt empty and is filled again by the next indexing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rebuilding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the new file is not empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>creating</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>searching</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>writing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The index &apos;%1&apos; was upgraded from schema version 1 to %2 (room for the passages&apos; vectors and PDF pages); what it held is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>upgrading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the question&apos;s vector has %1 dimensions, the index&apos;s vectors %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A vector of %1 dimensions cannot join the index &apos;%2&apos;, whose vectors have %3 dimensions: nothing of this batch was stored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The index &apos;%1&apos; does not exist yet: index the knowledge base first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The index &apos;%1&apos; is empty: index the knowledge base first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The index &apos;%1&apos; is damaged; the next indexing of its knowledge base rebuilds it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The index &apos;%1&apos; has schema version %2, this Loopscope uses %3; the next indexing of its knowledge base brings it up to date.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::KnowledgeIndexer</name>
    <message>
        <source>The knowledge base &apos;%1&apos; is being indexed by another process.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; does not exist (any more); what was indexed from it is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>larger than %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>binary (it contains NUL bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a PDF that can be read (corrupt?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PDF is password-protected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PDF has no text layer (a scan?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file is no longer there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file is now larger than %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file cannot be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PDF can no longer be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the PDF has no page %1 now</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::KnowledgeKeyReader</name>
    <message>
        <source>the knowledge base &apos;%1&apos; is embedded with &quot;%2&quot;, and the provider &apos;%3&apos; has no key to read (%4) nor is the environment variable %5 set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none is stored</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::KnowledgeLibrary</name>
    <message>
        <source>&apos;%1&apos; is not a valid knowledge base name: use letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A knowledge base needs at least one folder or file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There already is a knowledge base named &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the folder &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no knowledge base named &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot remove &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::KnowledgeSearchTool</name>
    <message>
        <source>the knowledge base &quot;%1&quot; cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the knowledge base &quot;%1&quot; cannot be searched: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The query is empty: say in a few words what to look for.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No passage shares a word with &quot;%1&quot;. Try other words.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the question could not be embedded with &quot;%1&quot;, so it was searched by its words only: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>page %1, lines %2-%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lines %1-%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[%1] %2 (%3, knowledge base %4, score %5)
%6</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::LineDiff</name>
    <message numerus="yes">
        <source>… %n more line(s) of the diff not shown</source>
        <translation>
            <numerusform>… %n more line of the diff not shown</numerusform>
            <numerusform>… %n more lines of the diff not shown</numerusform>
        </translation>
    </message>
    <message>
        <source>Too much changed to match the lines up: the old text is shown removed and the new one added.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::LoopbackReceiver</name>
    <message>
        <source>Loopscope received the answer of the sign-in. You can close this page.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpAuthorizer</name>
    <message>
        <source>sign-in failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server&apos;s protected resource metadata names another resource (%1), not %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the protected resource metadata names no usable authorization server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the authorization server %1 publishes no metadata</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>using the sign-in kept for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>client credentials need a client id in the server&apos;s “oauth” settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the authorization server publishes no metadata</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the authorization server %1 does not offer PKCE with S256, which MCP requires</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no port on 127.0.0.1 could receive the sign-in: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>refreshing the access token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the authorization server %1 offers no dynamic client registration; set a client id in the server&apos;s “oauth” settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the authorization server refused to register Loopscope (HTTP %1%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>opening the browser to sign in at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>nobody signed in within %n minute(s)</source>
        <translation>
            <numerusform>nobody signed in within %n minute</numerusform>
            <numerusform>nobody signed in within %n minutes</numerusform>
        </translation>
    </message>
    <message>
        <source>the sign-in came back with a state that does not match the request (refused)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the authorization server refused the sign-in: %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sign-in came back without an authorization code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the browser came back from the sign-in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the authorization server refused the token request (HTTP %1%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the authorization server issued a token of type “%1”, not a bearer token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>signed in at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>signed in at %1 with scope “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sign-in is kept in memory for this run only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sign-in is kept in memory for this run only: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the private key file %1 cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the private key file %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>signed out of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sign-in ended before the browser came back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>using the client registration kept for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>registered Loopscope at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sign-in came back without naming its issuer, which %1 promises (refused)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the sign-in came back from the issuer %1, not from %2 (refused)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpBridge</name>
    <message>
        <source>The MCP server was removed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for your answer to %1</source>
        <extracomment>A trace step: an MCP server asked the user a question and waits for the answer</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OAuth %1: %2 %3 → %4</source>
        <extracomment>A trace step of an MCP server&apos;s OAuth sign-in: the step, the method and URL, the HTTP status</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for you to allow a model call for %1</source>
        <extracomment>A trace step: an MCP server asked for a model call and waits for the user to allow it</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpClient</name>
    <message>
        <source>Last output: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” wants authorisation (HTTP %2): add an Authorization header in its settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” did not answer %2 in time (%3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” could not be reached for %2: %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” answered with an error: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” did not finish starting within %2 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” was stopped during the call.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” is not running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The call of “%1” on the MCP server “%2” was cancelled: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[Loopscope] the HTTP session expired; initialising a new one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” did not answer the call of “%2” within %3 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” refused to initialise: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” speaks MCP version “%2”, which Loopscope does not support (it supports %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” could not start: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[Loopscope] the server exited on server/discover; starting it again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>crashed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>code %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” exited (%2) during start-up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” exited (%2) during the call.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” exited (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” refused the request&apos;s protocol headers: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” needs a client capability Loopscope does not offer: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” does not support MCP version %2 and names no other (Loopscope supports %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” supports MCP versions %2, none of which Loopscope supports (it supports %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” wants authorisation (HTTP %2), and signing in did not succeed: %3. If it takes a token instead, add an Authorization header in its settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is not a log level (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” answered with a task without a taskId.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” could not say how the task of “%2” is going: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The task of “%1” on the MCP server “%2” failed: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” cancelled the task of “%2”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The task of “%1” on the MCP server “%2” has an unknown status “%3”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running as a task on the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” offers no resource subscriptions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” kept asking for more input during the call of “%2”; Loopscope gave up after %3 rounds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The call of “%1” on the MCP server “%2” was not completed: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the user declined its request for a model call.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server ended it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[Loopscope] the server&apos;s notifications stopped (subscriptions/listen): %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” did not listen for the subscription: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” did not accept the subscription to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The task of “%1” on the MCP server “%2” kept asking for more input; Loopscope gave up after %3 rounds and cancelled it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for input the task asked for</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The task of “%1” on the MCP server “%2” was cancelled: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” did not take the answers for the task of “%2”: %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpConfigImport</name>
    <message>
        <source>“%1” uses ${%2}, which VS Code asks for when it starts the server: edit the server and put the value in its place.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” uses ${workspaceFolder}: edit the server and put the folder in its place.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” uses ${%2}, which Loopscope does not expand: edit the server and put the value in its place.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped “%1”: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a server needs a name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its entry is not an object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it uses the old HTTP+SSE transport, which Loopscope does not support. If the server also offers Streamable HTTP, add it by hand with that URL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its type “%1” is unknown.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it has no URL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its URL “%1” is not an http:// or https:// address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its headers are not an object of strings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” has a URL ending in /sse, which usually means the old HTTP+SSE transport Loopscope does not support; it was imported as Streamable HTTP.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it has neither a command nor a URL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its args are not a list of strings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>its env is not an object of strings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” reads variables from an envFile, which Loopscope does not: add them to its environment by hand.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 is not valid JSON: %2 at offset %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 does not hold a JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 lists no MCP servers: it has neither “mcpServers” nor “servers”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 has “%2”, but not as an object of servers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 lists no MCP servers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpHub</name>
    <message>
        <source>The MCP server “%1” stopped: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” could not start: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpMessageLog</name>
    <message>
        <source>Sent to the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Received from the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Way</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Round trip</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpOAuthSettings</name>
    <message>
        <source>has an “oauth” entry that is not an object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has an “oauth” entry whose “%1” is not a string.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has an OAuth signing algorithm “%1” that is not supported (ES256 or RS256).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has a client metadata URL that is not an https:// address with a path: “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has an unknown OAuth grant “%1” (authorization_code or client_credentials).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpSamplingCall</name>
    <message>
        <source>The model call was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model call for %1</source>
        <extracomment>A trace step: the model call an MCP server asked for (sampling)</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model call failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpServerConfig</name>
    <message>
        <source>An MCP server has no name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has an unknown transport “%1” (stdio or http).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has arguments that are not a list of strings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has an environment that is not an object of strings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has secret environment names that are not a list of strings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has headers that are not an object of strings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has secret header names that are not a list of strings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has no command to start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>needs an http:// or https:// URL, not “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has disabled tools that are not a list of strings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has tool approval rules that are not an object of strings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has an unknown approval rule “%1” for the tool “%2” (always, ask or never).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has an unknown default approval “%1” (always, ask or never).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has a request timeout that is not a positive number of milliseconds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>keeps its secrets in an unknown place “%1” (keychain or file).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>has an unknown log level “%1” (%2).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpServerInstall</name>
    <message>
        <source>An MCP server needs a name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An MCP server’s name may hold at most %1 characters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An MCP server’s name may not hold control characters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” needs a command to start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The environment variable “%1” is not KEY=VALUE.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The environment variable %1 is given twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” needs an http:// or https:// URL, not “%2”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A header is not “Name: value”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The header “%1” is not “Name: value”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The header %1 holds control characters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The header %1 is given twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The link is not an MCP install link (loopscope://mcp/install?config=…).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP install link carries no server (its config= is missing).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP install link is too long (at most %1 KiB of JSON).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP install link’s config is not base64url.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP install link’s config is not valid JSON: %1 at offset %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP install link’s config is not a JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP install link’s header “%1” is not a valid HTTP header.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its command holds line breaks: check what it runs.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpSettings</name>
    <message>
        <source>The stored MCP servers could not be read; none are configured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the header %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the environment variable %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1”: %2 has no value in the keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1”: %2 could not be read from the keychain: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1”: %2 was not saved in the keychain: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1”: %2 could not be read from the key file: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep this server’s secrets in a file only you can read (Settings → MCP Servers).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep this server’s secrets in a file only you can read (Settings → MCP Servers), or leave %1 out here and set it in the environment Loopscope starts in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1”: %2 was not saved: there is no keychain on this desktop. %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1”: %2 was not saved in the key file: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” keeps its secrets in a key file, and there is none here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1”: %2 has no value in the key file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A removed MCP secret (%1) stayed where it was kept: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the OAuth client secret</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stored MCP servers could not be read; fix or remove them in Settings → MCP Servers first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is already an MCP server called “%1”; remove it first or choose another name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no MCP server called “%1”: none is configured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>There is no MCP server called “%1”; the servers are %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpTool</name>
    <message>
        <source>
[truncated: showed %1 of %2 characters]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The call to %1 on the MCP server “%2” was cancelled.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” is served on another thread than the agent&apos;s loop; its tools cannot be called from here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it was removed from the configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it is still starting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>it was stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” is not running: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The user stopped the call or its time ran out.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::McpTransport</name>
    <message>
        <source>the answer was larger than the response size limit of %1 MB (--max-response-mb)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ModelLister</name>
    <message>
        <source>No answer from %1 within %2 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not reach %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model list from %1 is not a JSON object: check the base URL.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ModelShield</name>
    <message>
        <source>%1 judged it unsafe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 judged it unsafe: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 gave no clear verdict</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::OllamaBodyDecoder</name>
    <message>
        <source>Ollama&apos;s response is incomplete: it does not say it is done.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::OllamaProbe</name>
    <message>
        <source>%1 did not answer within %2 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 answered with HTTP status %2: not an Ollama server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing answered at %1 (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 answered, but not like an Ollama server.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::OllamaResponseBuilder</name>
    <message>
        <source>Ollama reported an error: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::OllamaStreamDecoder</name>
    <message>
        <source>The stream from Ollama was cut in the middle of a line.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stream from Ollama ended before the response was complete.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::PlaygroundRun</name>
    <message>
        <source>The environment variable %1 that &quot;%2&quot; takes its key from is not set.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No API key is stored for &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keychain is available on this desktop to hold the key for &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The keychain could not give the key for &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key file could not give the key for &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ProviderBinding</name>
    <message>
        <source>No provider is configured: add one in Settings → Providers.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ReplayModelClient</name>
    <message>
        <source>The live model client of the replay is gone.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the recording has no model call %1: the recorded turn ended after %2 model calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The recorded model call failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The replay diverged from the recording at model call %1; stopped.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ReplayRun</name>
    <message>
        <source>the replayed turn ended before model call %1; the recording has %2 model calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>diverged at model call %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the turn ended differently: recorded %1, now %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the answer differs: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool call %1 differs: recorded %2 %3, now %4 %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the turn made %1 tool calls; the recording has %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::RuleShield</name>
    <message>
        <source>The rule has an empty pattern.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid regular expression &quot;%1&quot;: %2 (at offset %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>matched keyword &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>matched pattern &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::RunCommandTool</name>
    <message>
        <source>The command is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The command could not be started with %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
[live output stops here; the rest is in the result]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[stopped: the command did not finish within %1 s; it and everything it started were ended]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[cancelled: the command and everything it started were ended]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[the command was killed by signal %1]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[exit code %1]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
[... %1 bytes of output dropped here ...]
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[no output]</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::SessionDocument</name>
    <message>
        <source>Untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another session is still being opened.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::SessionKnowledge</name>
    <message>
        <source>The knowledge base &apos;%1&apos; is not attached: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no knowledge base named &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::SessionLibrary</name>
    <message>
        <source>The file could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not a session of this library.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not delete &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not rename &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the file could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::StepDebugger</name>
    <message>
        <source>No tool call is held.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments are not valid JSON: %1 at offset %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments must be a JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments do not match the schema of %1:
%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The messages are not valid JSON: %1 at offset %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The messages must be a JSON array of message objects.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message %1 is not a JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message %1 has an unknown role &quot;%2&quot; (system, user, assistant or tool).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The text of message %1 must be a string.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ToolApprovalPolicy</name>
    <message>
        <source>The user does not allow the tool &quot;%1&quot; to run.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ToolCallPreview</name>
    <message numerus="yes">
        <source>command: %1
folder: %2
timeout: %n s</source>
        <translation>
            <numerusform>command: %1
folder: %2
timeout: %n s</numerusform>
            <numerusform>command: %1
folder: %2
timeout: %n s</numerusform>
        </translation>
    </message>
    <message>
        <source>The file is too large to preview (%1 MB).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file cannot be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is binary; it is not shown as a diff.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; does not exist, so there is nothing to edit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not an http or https URL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new file %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>edit %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GET %1
host: %2%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (private address)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GET %1
%2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::ToolPhase</name>
    <message>
        <source>The tool failed with an exception: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tool failed with an unknown exception.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown tool &apos;%1&apos;. Available tools: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments are not valid JSON (%1 at offset %2). Send a JSON object that matches the tool&apos;s schema.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments must be a JSON object, not %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a plain value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not executed: %1 was requested with these same arguments in %2 responses in a row and would give the same result. Use the earlier result or try something different.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments do not match the schema of %1:
%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for your approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused at a breakpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for a decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied by the user.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied by the user: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The edited arguments are not a valid JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blocked by a safety check: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tool ended without an answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tool did not finish within its time limit of %1 s and was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not executed: this response asked for %1 tool calls, more than the limit of %2 per response (Settings → Loop, --max-tool-calls). Only the first %2 were run; ask again for what you still need.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>&quot;%1&quot;: %n passage(s)</source>
        <extracomment>A retrieval&apos;s name in the trace: the query, and how many passages it found</extracomment>
        <translation>
            <numerusform>&quot;%1&quot;: %n passage</numerusform>
            <numerusform>&quot;%1&quot;: %n passages</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Loopscope::Trace</name>
    <message>
        <source>Trace node %1: the field &quot;%2&quot; is missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace node %1: the field &quot;%2&quot; must be %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a 32-bit integer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an integer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace node %1: the tree is nested deeper than %2 levels.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace node %1: a node must be a JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace node %1: the id must not be negative.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace node %1: unknown kind &quot;%2&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace node %1: unknown status &quot;%2&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace node %1: either every node has an id or none does.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace node %1: its id must be greater than its parent&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace node %1: its id must be greater than the previous sibling&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace node %1: unknown data type &quot;%2&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace node %1: the request&apos;s base %2 is not an earlier model call.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace node %1: the request keeps %2 messages of a base that has %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The trace holds the node id %1 twice.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::TraceModel</name>
    <message>
        <source>Turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shield check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reflection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handoff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wait</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OK</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blocked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Limited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 ms</source>
        <extracomment>A duration in milliseconds, e.g. &quot;12.3 ms&quot;</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <extracomment>A duration in seconds, e.g. &quot;23.9 s&quot;</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 working, %3 waiting for you</source>
        <extracomment>Tooltip of a step&apos;s duration: the whole, the machine&apos;s part, the part spent waiting for the user</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>$%1 / $%2 per million input / output tokens</source>
        <extracomment>Tooltip of a model call&apos;s cost: USD per million input and output tokens, and their source</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, $%1 cached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First token after %1</source>
        <extracomment>Tooltip of a model call&apos;s tokens: the wait for the first streamed token</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · %1 tokens/s</source>
        <extracomment>Output tokens per second after the first token</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · re-runs: %2</source>
        <extracomment>A model call&apos;s name in the trace, with how many times it was re-run in the playground</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compaction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retrieval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OAuth</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::TranscriptFile</name>
    <message>
        <source>line %1, column %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file nests objects and arrays more than %1 levels deep (at %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file holds more than %L1 JSON values, more than any session needs (at %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key %1 appears twice in the top-level object (at %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key %1 appears twice in %2 (at %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is %1 MB; Loopscope opens session files of up to %2 MB.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is UTF-16 or UTF-32 text; session files are UTF-8.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is UTF-16 text; session files are UTF-8.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file holds binary data (a zero byte at %1), not JSON text.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file ends too early (at %1): it is probably truncated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file is not valid JSON: %1 at %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No file was named.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file %1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a folder, not a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a regular file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be read: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 changed while it was being read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session is %1 MB, more than Loopscope can open again (%2 MB); it was not saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be written: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>assistant messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be an http or https URL; it is %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file holds JSON, but not a Loopscope session: a session is a JSON object, this is an array.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file holds JSON, but not a Loopscope session: it has no formatVersion.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This session was saved by a newer Loopscope (format %1); this version reads up to format %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The trace is malformed. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The field &quot;attachmentData&quot; must be an object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An image attachment names the data %1, which the file&apos;s &quot;attachmentData&quot; does not hold.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::TranscriptImport</name>
    <message>
        <source>a string or an array of text parts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is of type %2; only text parts can be imported.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must not be empty.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a string of JSON or an object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>assistant messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 answers no earlier tool call.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An OpenAI conversation is a JSON array of messages; this is an object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The conversation has no user or assistant messages to import.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The conversation cannot be continued as it is: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported conversation</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::TranscriptReplay</name>
    <message>
        <source>The replay could not start.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::TurnNotices</name>
    <message>
        <source>Attempt %1 failed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attempt %1 failed (HTTP %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attempt %1 failed (no response)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recovered after %1 attempts: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed after %1 attempts: %2; the last attempt&apos;s error follows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reached the limit of %1 iterations: the last answer was forced without tools.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You stopped the turn before it finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n old tool result(s) trimmed</source>
        <translation>
            <numerusform>%n old tool result trimmed</numerusform>
            <numerusform>%n old tool results trimmed</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n oldest message(s) left out</source>
        <translation>
            <numerusform>%n oldest message left out</numerusform>
            <numerusform>%n oldest messages left out</numerusform>
        </translation>
    </message>
    <message>
        <source>Earlier messages compacted to fit the context window — %1 → %2 tokens (%3). The session keeps them all; the trace shows what was replaced.</source>
        <extracomment>A divider in the chat. %1, %2: estimated tokens before and after; %3: what was left out</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) summarised</source>
        <translation>
            <numerusform>%n message summarised</numerusform>
            <numerusform>%n messages summarised</numerusform>
        </translation>
    </message>
    <message>
        <source>the summary failed: %1</source>
        <extracomment>In the chat&apos;s compaction divider: the summary&apos;s model call failed; %1: why</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Earlier messages summarised to fit the context window — %1 → %2 tokens (%3). The session keeps them all; the trace shows the summary and what it replaced.</source>
        <extracomment>A divider in the chat. %1, %2: estimated tokens before and after; %3: what was replaced</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::AgentChooser</name>
    <message>
        <source>Agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent this session&apos;s next turn starts with</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session &amp;Prompt…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A system prompt for this session only; the agent stays as it is</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;gents…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings → Loop&apos;s system prompt and options</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>version %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This Session&apos;s System Prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For this session only (the agent is not changed); empty: the agent&apos;s own prompt.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::AgentsDialog</name>
    <message>
        <source>Agents</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::AgentsPage</name>
    <message>
        <source>the session&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>D&amp;uplicate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duplicate agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import agents file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>E&amp;xport…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export agents file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Without an agent, a session runs as the default agent: Settings → Loop&apos;s system prompt and options.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Versions of the agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The selected version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Versions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agents status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>letters, digits, _ or -, e.g. billing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Instructions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent&apos;s system prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session&apos;s provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the provider&apos;s model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session&apos;s tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the session&apos;s tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session&apos;s knowledge bases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search the session&apos;s knowledge bases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge bases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reflect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>continue the turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>end the turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handoffs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sub-agents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Iteration limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parallel tool calls:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool time limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Token budget:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After the loop:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On a handoff:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handoff limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other agents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hands off to (transfer_to_…):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asks (ask_…):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shields</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session&apos;s shields</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use the session&apos;s shields</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save as New Version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save agent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (no such profile)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved &quot;%1&quot; as version %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not duplicated: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; is a copy of &quot;%2&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not deleted: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deleted &quot;%1&quot; and its versions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing imported: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported the agents of &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported the agents to &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import Agents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agents files (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export Agents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agents files (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Version %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrap-up iterations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last iteration without tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes: the last iteration offers no tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>everything</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the text, without its tool calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the context fills</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrap-up iterations:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last iteration without tools:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool calls per response:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handed on:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the context fills:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compact at:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N&amp;ew</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>De&amp;lete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Im&amp;port…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn time limit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The time a turn of this agent may take, not counting waits for you; 0: none. As a sub-agent: the time its answer may take.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nucleus sampling (top_p). Some models refuse a temperature and top_p together; their error is shown in the chat.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn time limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top p:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>N&amp;ame:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ins&amp;tructions:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;rovider:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T&amp;ools:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Knowledge:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: every tool of this MCP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every tool the MCP server &quot;%1&quot; offers, also those it adds later (saved as &quot;%2&quot;). Or check single tools beneath it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: every tool of this MCP server (not configured)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::AppearancePage</name>
    <message>
        <source>Send with &amp;Enter (Shift+Enter starts a new line)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send with Enter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reopen the last session on start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reopen the last session on start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Enter always sends.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Otherwise Loopscope starts with a new session; every session stays in the session library.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loopscope follows your system&apos;s light or dark palette. To switch, change the colour scheme in your desktop settings.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ApprovalCard</name>
    <message>
        <source>Allow once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the call will do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command or address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working out what it will do…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit the arguments of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problem with the arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow this call once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run this call with the arguments shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deny this call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Do not run it; the model is told that you refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; of the MCP server &lt;b&gt;%2&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent wants to run %1. Check what it will do, and decide.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent wants to run %1. Check the arguments, edit them if needed, and decide.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval for %1 of the MCP server %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not valid JSON: %1 at offset %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The arguments must be a JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 — new file, %n line(s)</source>
        <translation>
            <numerusform>%1 — new file, %n line</numerusform>
            <numerusform>%1 — new file, %n lines</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — no change: the file already reads like this</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 — %n line(s) changed (+%2 −%3)</source>
        <translation>
            <numerusform>%1 — %n line changed (+%2 −%3)</numerusform>
            <numerusform>%1 — %n lines changed (+%2 −%3)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>In &lt;b&gt;%1&lt;/b&gt;, stopped after %n second(s)</source>
        <translation>
            <numerusform>In &lt;b&gt;%1&lt;/b&gt;, stopped after %n second</numerusform>
            <numerusform>In &lt;b&gt;%1&lt;/b&gt;, stopped after %n seconds</numerusform>
        </translation>
    </message>
    <message>
        <source>A command can do anything you can: change or delete files anywhere, not only in the workspace, and reach the network. Allow only what you understand.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host: &lt;b&gt;%1&lt;/b&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This address is on your own computer or local network.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 everywhere</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in the workspace folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in %2/</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Commands starting with “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Always allow %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run this call and never ask again for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Always allow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Always allow, choosing how far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run this call and stop asking for calls like it; rules are listed in Settings → Tools</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::AttachmentChip</name>
    <message>
        <source>Attachment %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove %1 from the message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::AutosaveIndicator</name>
    <message>
        <source>Save As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the conversation to a file elsewhere</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosave failed: %1
The turns since are not in the session library; it is tried again on the next change and every few minutes.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ChatComposer</name>
    <message>
        <source>Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Editing your last question: Send asks it again in its place.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the agent (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel editing the last question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave the question as it was (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Editing the last question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message the agent (Enter to send, Shift+Enter for a new line)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message the agent (Ctrl+Enter to send)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send (Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send (Ctrl+Enter)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach files to the message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach images or documents (or drop or paste them here)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attach Files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images and documents (*.png *.jpg *.jpeg *.webp *.gif *.pdf *.txt *.md *.json *.csv *.xml *.yaml *.yml *.html *.log *.py *.cpp *.h *.js *.ts *.rs *.go *.java *.sh)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send Anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the message with its attachments all the same</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the message as it is, though the model may refuse it</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ChatItem</name>
    <message>
        <source>Asked again: the model no longer sees this turn; the trace keeps it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ChatView</name>
    <message>
        <source>Conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the agent something.
Its answers, tool calls and errors appear here; select one to find it in the trace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt %1 failed; trying again…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Show %n earlier turn(s)</source>
        <translation>
            <numerusform>Show %n earlier turn</numerusform>
            <numerusform>Show %n earlier turns</numerusform>
        </translation>
    </message>
    <message>
        <source> (%1 in all)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show earlier messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server no longer waits for an answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server no longer waits for the model call.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::CodeBlockView</name>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the code to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::CompareDialog</name>
    <message>
        <source>%1. %2</source>
        <extracomment>A turn in the compare dialog: its number and question</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare Turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>This session (%n turn(s))</source>
        <translation>
            <numerusform>This session (%n turn)</numerusform>
            <numerusform>This session (%n turns)</numerusform>
        </translation>
    </message>
    <message>
        <source>Browse for a session file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run A</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Session:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Turn:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Compare</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick two turns, e.g. a replay and its recording, or the same question asked of two models.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n turn(s))</source>
        <translation>
            <numerusform>%1 (%n turn)</numerusform>
            <numerusform>%1 (%n turns)</numerusform>
        </translation>
    </message>
    <message>
        <source>Compare With a Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loopscope sessions (*.loopscope.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has no turns.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ComparisonView</name>
    <message>
        <source>A only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shown, not compared: two runs always differ in tokens, time and cost.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The same in both runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only run A has this step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only run B has this step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare Runs — Loopscope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: %1    B: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>B: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Aligned steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request diff</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a model request to see what each run sent: its messages and parameters, lines only A sent in red (−), only B in green (+).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ComposerAttachments</name>
    <message>
        <source>Attachments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attachment problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The pasted image could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The attachments are still being read: send again in a moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; is no longer on disk: remove it from the message or attach it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&apos;%1&apos; can no longer be read: remove it from the message or attach it again.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::DebugPanel</name>
    <message>
        <source>Debugger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Debugger controls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Current stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the loop is held</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What letting it go will do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Breakpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the breakpoints instead of the current stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hold the loop before its next model call or tool execution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let this stop go and hold at the next model call or tool execution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the loop run until the next breakpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Debug mode: hold the loop at breakpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before each &amp;model call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before every &amp;tool call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At the next step after an &amp;error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools to break before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool names, comma-separated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before the tools:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Messages of the pending request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The messages the model will receive (JSON)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check of the messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Apply</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Revert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments of the held tool call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check of the arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result typed by hand</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a result instead: what the model should read as the tool&apos;s result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a result instead of running the tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report it as an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report the typed result to the model as the tool&apos;s error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Use this result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Deny</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Do not run the tool; the model is told the call was denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the typed result will do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Available tools: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pausing: the loop will be held before its next model call or tool execution.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loop is not held. Set a breakpoint or press Pause to hold it before its next model call or tool execution.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>breakpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held before the reflection call (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held before the model call of iteration %1 (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On release: the model receives the edited messages.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On release: the request goes as the loop built it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Held before the tool call %1 (id %2) of iteration %3 (%4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On release: the call is denied and the model is told so.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On release: the tool does not run; the model reads the typed result.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On release: the tool runs with the edited arguments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On release: the tool runs with the model&apos;s arguments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n more call(s) held: Step lets them go one at a time.</source>
        <translation>
            <numerusform>%n more call held: Step lets them go one at a time.</numerusform>
            <numerusform>%n more calls held: Step lets them go one at a time.</numerusform>
        </translation>
    </message>
    <message>
        <source>Denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is no longer on the workbench.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The parameter schema of %1:
%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A strict provider may refuse these messages: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Applied: the model receives these %n message(s) on Step or Continue.</source>
        <translation>
            <numerusform>Applied: the model receives this %n message on Step or Continue.</numerusform>
            <numerusform>Applied: the model receives these %n messages on Step or Continue.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Valid: %n message(s).</source>
        <translation>
            <numerusform>Valid: %n message.</numerusform>
            <numerusform>Valid: %n messages.</numerusform>
        </translation>
    </message>
    <message>
        <source>Applied: the tool runs with these arguments on Step or Continue.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Valid for the tool&apos;s schema.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Staged: the tool will not run; on Step or Continue the model reads this as an error.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Staged: the tool will not run; on Step or Continue the model reads this result.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed since it was staged: press Use this result again to stage the new text.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::DiffView</name>
    <message>
        <source>Changes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ElicitationCard</name>
    <message>
        <source>Accept</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question from the MCP server %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server &lt;b&gt;%1&lt;/b&gt; asks:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the answer still needs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send these values to the server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tell the server you do not want to answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss the question without an answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 needs at least %n character(s).</source>
        <translation type="vanished">
            <numerusform>%1 needs at least %n character.</numerusform>
            <numerusform>%1 needs at least %n characters.</numerusform>
        </translation>
    </message>
    <message>
        <source>You answered.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You declined.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You dismissed the question.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It asks you to open: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the address in your browser and tell the server you did</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::FirstRunPanel</name>
    <message>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Look again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open an example: two tools in parallel, then a third</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open an example: wrong tool calls and the recovery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Welcome to Loopscope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To chat, Loopscope needs a model to talk to: an OpenAI-compatible service, Anthropic, Google Gemini, or an Ollama server on this computer. Providers are added in Settings; their API keys are kept in your system keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ollama status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ollama model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look for Ollama again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Or look around first: the examples are recorded sessions, opened without a provider.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for an Ollama server at %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An Ollama server is running at %1, but it has no models yet. Pull one in a terminal, for example “ollama pull llama3.2”, then look again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>An Ollama server is running at %1 with %n model(s). Use it to start chatting now, or add another provider in Settings.</source>
        <translation>
            <numerusform>An Ollama server is running at %1 with %n model. Use it to start chatting now, or add another provider in Settings.</numerusform>
            <numerusform>An Ollama server is running at %1 with %n models. Use it to start chatting now, or add another provider in Settings.</numerusform>
        </translation>
    </message>
    <message>
        <source>No Ollama server was found. %1

To use a hosted model, open Settings, add a provider and enter its API key. To run models on this computer, install Ollama from ollama.com, pull a model, and look again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Use Ollama with %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use Ollama with %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ollama (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved the profile “%1” as the default. You can change it in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::InspectorPromptsPanel</name>
    <message>
        <source>&amp;Get</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the server for this prompt&apos;s messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a prompt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This prompt takes no arguments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Getting %1…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::InspectorRequestForm</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop waiting and tell the server the request is cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::InspectorResourcesPanel</name>
    <message>
        <source>Rea&amp;d</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resources and resource templates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource URI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A template&apos;s {variables} are yours to fill in before reading</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource templates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading %1…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::InspectorToolsPanel</name>
    <message>
        <source>&amp;Call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call the tool with these arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a tool.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This tool takes no arguments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled in the MCP Inspector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calling %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calling %1… %2 %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::JsonTreeView</name>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[1 item]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[%L1 items]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>… %L1 more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
%2 µs since 1970</source>
        <extracomment>Tooltip of a time in the JSON tree: the local date and time, then the recorded number</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::KeyFileCheckBox</name>
    <message>
        <source>Without a keychain: kept unencrypted in a file only your user account can read, as gh and docker do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store in a File?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store in a File</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::KnowledgeBaseDialog</name>
    <message>
        <source>&amp;Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add Knowledge Base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos;; how sessions and the command line name it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add &amp;Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add F&amp;iles…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folders and files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None: search by words only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. nomic-embed-text, text-embedding-3-small</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folders and files:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Embeddings:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding &amp;model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passages are found by the words they share with the question.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passages are also found by meaning. The key is read as for chat, from this provider&apos;s keychain entry or key file, else the environment variable %1, whenever the base is indexed or searched; it is never stored with the base.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passages are also found by meaning.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a Folder to the Knowledge Base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add Files to the Knowledge Base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the base a name of letters, digits, &apos;.&apos;, &apos;_&apos; and &apos;-&apos; (at most 64, not starting with &apos;.&apos;).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add at least one folder or file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name the embedding model, or choose None.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::KnowledgeButton</name>
    <message>
        <source>The knowledge bases this session&apos;s agent may search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No knowledge base yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Manage Knowledge Bases…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge</source>
        <extracomment>The composer&apos;s button; the number is how many knowledge bases the session attaches</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge (%1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::KnowledgePage</name>
    <message>
        <source>S&amp;top Indexing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;dd…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Remove…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-&amp;index</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge bases</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Indexing progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Automatic retrieval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Knowledge base status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the model searches them (knowledge_search)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also before every turn (automatic retrieval)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Automatic retrieval searches the session&apos;s knowledge bases for the question and puts the best passages into the turn&apos;s requests, as loopscope run --retrieve auto.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sessions search their knowledge bases:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folders and files the agent can search. A session attaches them with the Knowledge button beside the message. Their folders are watched while Loopscope runs, and changes are indexed in the background.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No knowledge base yet: add one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding: %1 of %2 passages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Indexing: %1 of %2 files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folders and files: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files %1 · passages %2 · %3 on disk · last indexed %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embeddings: none (searched by its words)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embeddings: %1, passages embedded %2 of %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problem: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Skipped %n file(s):</source>
        <translation>
            <numerusform>Skipped %n file:</numerusform>
            <numerusform>Skipped %n files:</numerusform>
        </translation>
    </message>
    <message>
        <source>Indexing the knowledge base &apos;%1&apos; in the background.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove Knowledge Base</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the knowledge base &apos;%1&apos; and delete its index? The documents themselves stay where they are.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removed the knowledge base &apos;%1&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::LibrarySidebar</name>
    <message>
        <source>Sessions &amp;Sidebar</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show or hide the list of sessions (Ctrl+3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the running turn before deleting its session.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::LoopPage</name>
    <message>
        <source>Maximum iterations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parallel tool calls</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the loop ends without an answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool timeout in seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider read timeout in seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Response size limit in megabytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request time limit in seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model calls in one turn before the loop must answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 runs a response&apos;s tool calls one after another.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reflect: one more model call, without tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary: list what the tools returned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing: say that the loop stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long a provider may stay silent in the middle of an answer before the call fails.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most one answer from a provider or an MCP server may hold; a larger one fails the call.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long one provider request may take in all, however steadily it streams.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optional instructions the model gets before every conversation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Maximum iterations:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Parallel tool calls:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the loop &amp;ends:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool &amp;timeout:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider &amp;read timeout:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Response si&amp;ze limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;quest time limit:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;System prompt:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool calls one response may have run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Calls of one response past this many are not run; the model is told why.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool ca&amp;lls per response:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When a request would fill the context window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compact at this share of the window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trim old tool results only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave out the oldest turns only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing: refuse a request that does not fit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The conversation keeps every message; only what the requests carry changes, and the trace shows each compaction.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> % of the context window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the conte&amp;xt fills:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compact &amp;at:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model that writes summaries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the model is asked when it summarises</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trim old tool results, then summarise, then leave out the oldest turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summarise older turns only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The conversation&apos;s own model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A summary is a model call on the session&apos;s provider; a smaller, cheaper model of the same provider can write it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The system instruction of the summary&apos;s model call. The turns to summarise follow as one user message.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary m&amp;odel:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;ummary prompt:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shields</source>
        <extracomment>Settings → Loop: the rule and model shields of the conversation&apos;s own agent</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checks on the question, each tool call&apos;s arguments and the answer; a blocked step is explained in the chat and the trace. An agent of an agents file uses its own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn time limit in seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How long one turn may take, not counting the time it waits for you (an approval, a breakpoint); then it stops and says so.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn time limit:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::MainWindow</name>
    <message>
        <source>Loopscope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Debugger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;top Turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel the running turn (Esc)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Debug Mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the step debugger and stop at its breakpoints (Ctrl+Shift+D)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;MCP Prompts and Resources…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Put a prompt or a resource of an MCP server into the message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Trace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Debug</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Loopscope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Example Sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1[*] — Loopscope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a provider in Settings to ask the agent; the question is still there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Ctrl+Enter&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Send (Enter too, if set in Settings)&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Esc&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Stop the running turn&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Ctrl+N&lt;/b&gt;&lt;/td&gt;&lt;td&gt;New session&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Ctrl+O&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Open a session&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Ctrl+S / Ctrl+Shift+S&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Save / Save As&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Ctrl+,&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Settings&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Ctrl+Shift+D&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Debug mode&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;F5&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Continue&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;F10&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Step to the next model call or tool execution&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Shift+F5&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Stop debugging (cancels the turn)&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Ctrl+Shift+R&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Replay the selected turn from its recording&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Ctrl+Shift+M&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Put an MCP prompt or resource into the message&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;F2&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Rename the selected session in the sessions sidebar&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Delete&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Delete the selected session in the sessions sidebar&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;tr&gt;&lt;td&gt;&lt;b&gt;Ctrl+1 / Ctrl+2 / Ctrl+3&lt;/b&gt;&lt;/td&gt;&lt;td&gt;Show or hide the conversation / the trace / the sessions sidebar&lt;/td&gt;&lt;/tr&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Loopscope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Loopscope %1&lt;/b&gt;&lt;p&gt;Chat with an LLM agent and see, step by step, what its tool loop does.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added the MCP server “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP &amp;Inspector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>List an MCP server&apos;s tools, resources and prompts, call them by hand, and watch every message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::MarkdownView</name>
    <message>
        <source>Message text</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::McpInspectorWindow</name>
    <message>
        <source>&amp;Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP Inspector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Resources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Prompts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ser&amp;ver:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (disabled)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No MCP server is configured: add one in Settings → MCP Servers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” is disabled: enable it in Settings → MCP Servers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Ready: %1 %2, protocol %3; %n tool(s)</source>
        <translation>
            <numerusform>Ready: %1 %2, protocol %3; %n tool</numerusform>
            <numerusform>Ready: %1 %2, protocol %3; %n tools</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::McpInstallDialog</name>
    <message>
        <source>Add an MCP Server?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A link asks to add an MCP server that runs this command on your computer, with your rights, whenever Loopscope starts. Add it only if you trust where the link came from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A link asks to add an MCP server reached over the network. Add it only if you trust where the link came from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The command it would run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where it is reached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It would run:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Address:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every tool of this server asks before it runs; you can change that in Settings → MCP Servers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The link carries secrets (shown masked); they are kept in the keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add Server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment: %1=%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In the folder: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Header: %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::McpInstaller</name>
    <message>
        <source>The MCP server “%1” was not added: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP Server Link</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::McpLogPanel</name>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy &amp;All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cl&amp;ear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter by method</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Both ways</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter by direction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text in the message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter by text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON-RPC messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The chosen message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the chosen message as JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the messages shown, one JSON object per line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget the messages logged so far</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::McpResourcesDialog</name>
    <message>
        <source>&amp;Insert into Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP Prompts and Resources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompts and resources of the MCP servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The resource&apos;s text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resource: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No running MCP server offers prompts or resources.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (required)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 *</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” is not running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking “%1” for the prompt…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a prompt or a resource of a running MCP server. A prompt&apos;s text goes into your message, a resource goes with it as an attachment; the model does not see these as tools.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Attach to Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Changed on the server at %1; shown as it is now.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::McpResultView</name>
    <message>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An image (%1) that could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[image %1×%2]</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>… (%n more characters)</source>
        <translation>
            <numerusform>… (%n more characters)</numerusform>
            <numerusform>… (%n more characters)</numerusform>
        </translation>
    </message>
    <message>
        <source>As received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Structured content</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tool reported an error (isError) after %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result after %1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Contents of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prompt %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::McpServerEditor</name>
    <message>
        <source>Server name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Enabled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server enabled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Transport</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One argument per line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>KEY=VALUE, one per line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Working folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name: value, one per line</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Headers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request timeout in seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Command (stdio)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Streamable HTTP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. npx</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The workspace folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>https://example.com/mcp</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default (%1 s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Authorization, API keys and tokens are kept in the keychain and shown as %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Transport:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Arguments:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>En&amp;vironment:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Working folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Headers:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request &amp;timeout:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server needs a name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” needs a command to start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1”: line %2 of the environment is not KEY=VALUE.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” needs an http:// or https:// URL.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1”: line %2 of the headers is not “Name: value”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep secrets in a fi&amp;le only you can read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This server’s secrets (Authorization, API keys, tokens) will be kept unencrypted in a file that only your user account can read. Anyone who can use your account, and your backups, can read them too. A keychain would keep them encrypted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep this server’s secrets in a file only you can read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keychain is available on this desktop, so secrets cannot be kept encrypted. Keep them in a file only you can read, or leave token variables out here and set them in the environment Loopscope starts in.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Authorization, API keys and tokens are kept in a file only you can read and shown as %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::McpServersPage</name>
    <message>
        <source>Import from Claude Desktop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import the servers of Claude Desktop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add an MCP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected MCP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import MCP servers from another app&apos;s configuration file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Claude Desktop, Claude Code (.mcp.json), Cursor, LM Studio or VS Code</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restart the selected MCP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No MCP server yet. Add one that runs as a command (e.g. npx with a server package) or one reached over HTTP, or import those you set up for another app.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before it runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tools appear here once the server is running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s last output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server&apos;s details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starts when saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ready · %1 · protocol %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ready · %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two MCP servers are called “%1”; each needs a name of its own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import MCP Servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP configuration (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“%1” was already taken; the imported server is “%2”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported 1 server; it starts when you save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported %1 servers; they start when you save.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import 1 server from Claude Desktop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import %1 servers from Claude Desktop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run without asking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask me first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The secrets of “%1” stay in the key file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The secrets of “%1” stay in the keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the server writes to stderr, and the log messages it sends, appear here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log messages from</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Debug</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Info</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Critical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alert</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Emergency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 and above</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the server chooses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Log messages:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The least severe messages the server should send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This server sends no log messages (it does not declare logging).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Available once the server is running.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[Loopscope] the server refused the log level %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::McpSignInBar</name>
    <message>
        <source>Sign &amp;in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign &amp;out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OAuth sign-in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign in to the selected MCP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restarts the server; when it asks for OAuth, the browser opens to sign in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sign out of the selected MCP server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removes the server&apos;s tokens from the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not signed in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signed in at %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · scopes %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · expires %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signing out did not remove the tokens from the keychain: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::MessageWidget</name>
    <message>
        <source>You</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit and resend the message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regenerate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask for a new answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message of the agent %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::NoticeCard</name>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry the last message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the last question again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The turn failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A limit was reached</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blocked by a safety check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recovered by retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retrying did not help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context nearly full</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Earlier messages compacted</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::PlaygroundWindow</name>
    <message>
        <source>Failed (HTTP %1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>→ calls %1(%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finish: %1 · model %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens: %1 in, %2 out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time: %1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Send</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Fork from Here with This Response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Playground — %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The profile&apos;s model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Provider:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request (messages, tools and options as JSON)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recorded response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No provider profile is configured: add one in Settings → Providers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a provider profile to send to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sending to %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled: nothing was kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answered; kept as re-run %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider failed; kept as re-run %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pick a re-run to fork with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n token</numerusform>
            <numerusform>%n tokens</numerusform>
        </translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1. %2 · %3 · %4</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ProviderPicker</name>
    <message>
        <source>Set &amp;Key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model for the next turn of this session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Provider:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider for the next turn of this session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Listing the models of %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type a model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider lists no models: type the name of one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>The model for the next turn of this session; %n listed, or type one.</source>
        <translation>
            <numerusform>The model for the next turn of this session; %n listed, or type one.</numerusform>
            <numerusform>The model for the next turn of this session; %n listed, or type one.</numerusform>
        </translation>
    </message>
    <message>
        <source>The models could not be listed: %1
Type the name of a model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The next turn uses %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This session ran on %1, which no provider here reaches; the next turn uses %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This session continues on %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This session continues on %1 with %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set by agent &quot;%1&quot;, which runs on a provider profile of its own: choose its provider and model on the Agents page, or choose another agent.</source>
        <extracomment>%1 is the agent&apos;s name. The toolbar&apos;s provider and model pickers while the agent decides.</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set by agent &quot;%1&quot;, which names its model: choose it on the Agents page, or choose another agent.</source>
        <extracomment>%1 is the agent&apos;s name. The toolbar&apos;s model picker while the agent names its model.</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ProviderProfileEditor</name>
    <message>
        <source>Store the key in a fi&amp;le only you can read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stream the answer as it is written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. Work OpenAI</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OpenAI-compatible</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anthropic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Google Gemini</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ollama</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Base URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Leave empty for the provider&apos;s usual address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key from environment variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The name of an environment variable that holds the key, used instead of the keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keychain is available on this desktop, so the key cannot be kept in one. Name an environment variable that holds it, or store the key in a file only you can read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use an en&amp;vironment variable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the key from an environment variable set before Loopscope starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Store the key in a file only you can read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>provider default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Maximum output tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>price table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>USD per million tokens. Set both prices to override the built-in price table; local servers cost 0 without them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input price per million tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output price per million tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stream responses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sends one short message to the model with these settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection test result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Provider:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API &amp;key:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Environment variable:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Temperat&amp;ure:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max output t&amp;okens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Input price per M tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output pri&amp;ce per M tokens:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context &amp;window (tokens):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key will be kept unencrypted in a file that only your user account can read. Anyone who can use your account, and your backups, can read it too. A keychain would keep it encrypted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the profile a name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the model to use, e.g. %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The base URL must be an http:// or https:// address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An environment variable name has no spaces and no &quot;=&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checking the keychain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stored in the key file — type to replace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stored in the keychain — type to replace</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the key file could not be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the keychain could not be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no keychain on this desktop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not set</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not needed for a local server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key is read from the environment variable %1; the keychain is not used for this profile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key is kept in a file only you can read, never in the settings file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key is kept in your system keychain, never in the settings file. Or name an environment variable that holds it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key file: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keychain: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top p</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nucleus sampling (top_p). Some models refuse a temperature and top_p together; their error is shown in the chat.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Top p (nucleus s&amp;ampling):</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ProvidersPage</name>
    <message>
        <source>Provider profiles</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;dd</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a provider profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected provider profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make de&amp;fault</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Make the selected profile the default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New conversations use the default profile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No provider yet. Press Add to set one up: an OpenAI-compatible service, Anthropic, Google Gemini, or an Ollama server on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no name)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider “%1”: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the key for “%1” is in the keychain but stayed in the key file: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a removed profile&apos;s key stayed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the key for “%1” stays in the key file: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the key for “%1” was not saved: there is no key file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keychain is available on this desktop to keep the key for “%1”: name an environment variable for it, or store it in a file only you can read (Providers).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the key for “%1” was not saved: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the environment variable %1 is not set.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no keychain is available on this desktop to hold the key.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the keychain could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the key file could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ReplayWindow</name>
    <message>
        <source>Run &amp;tools live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue &amp;Live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>C&amp;ompare…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sa&amp;ve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay: %1 — Loopscope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Press Replay to run the recorded turn again.
Its answers, tool calls and errors appear here; select one to find it in the trace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the tools again instead of using the results the recording holds.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send this and every later model call to the current provider.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare the replayed turn with its recording, or with another session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the replayed run as a session in the library</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This turn cannot be replayed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ready to replay &quot;%1&quot; from its recorded responses, without network. Set breakpoints in the debugger to pause on the way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The replay could not start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replaying from the recording…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diverged from the recording at model call %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No provider is configured to continue live; stop, or configure one in Settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continuing live with the current provider…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay &amp;Again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the recorded turn again from the start, in a new trace.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reproduced: the same tool calls and the same answer as recorded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Did not reproduce: it diverged at model call %1 (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Did not reproduce: the outcome or the tool calls differ from the recording.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (replay)</source>
        <extracomment>The title of a replayed run kept as a session</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the folder cannot be made.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The replay could not be saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved as &quot;%1&quot; in the session library.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::RetrievalView</name>
    <message>
        <source>Passages found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, line %2</source>
        <extracomment>Where a passage is: the file&apos;s name and its line</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, lines %2–%3</source>
        <extracomment>Where a passage is: the file&apos;s name and its first and last lines</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BM25 %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cosine %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fused %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not searched: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No passage shares a word with &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>knowledge base %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, p. %2</source>
        <extracomment>Where a passage is: a PDF&apos;s name and its page</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::SamplingCard</name>
    <message>
        <source>System prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model call asked for by the MCP server %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server &lt;b&gt;%1&lt;/b&gt; asks for a model call:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It prefers:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No system prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System prompt:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Assistant:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model may ask for these tools; the server runs them, not Loopscope.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools offered:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most tokens the model may answer with</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At most:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session&apos;s model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model to run on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send this to the model on your provider and give the server its answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tell the server you do not allow this model call</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You allowed the model call.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>You declined the model call.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::SchemaForm</name>
    <message>
        <source>JSON object, e.g. {&quot;key&quot;: &quot;value&quot;}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON array, e.g. [1, 2]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name@example.com</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>https://…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YYYY-MM-DD</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>YYYY-MM-DDTHH:MM:SSZ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (required)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 *</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Required</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose at least %1 for %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose at most %1 for %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fill in %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a JSON array.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be an email address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be an address such as https://example.com.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a date such as 2026-01-31.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 must be a date and time such as 2026-01-31T09:00:00Z.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 needs at least %n character(s).</source>
        <translation>
            <numerusform>%1 needs at least %n character.</numerusform>
            <numerusform>%1 needs at least %n characters.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::SessionActions</name>
    <message numerus="yes">
        <source>%n finished turn(s) of &quot;%1&quot; are not saved anywhere.</source>
        <translation>
            <numerusform>%n finished turn of &quot;%1&quot; is not saved anywhere.</numerusform>
            <numerusform>%n finished turns of &quot;%1&quot; are not saved anywhere.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&amp;Discard %n Turn(s)</source>
        <translation>
            <numerusform>&amp;Discard %n Turn</numerusform>
            <numerusform>&amp;Discard %n Turns</numerusform>
        </translation>
    </message>
    <message>
        <source>Loopscope sessions (*.loopscope.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import OpenAI Messages…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a new, empty session (Ctrl+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As &amp;Markdown…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As Standalone &amp;HTML…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace as &amp;OpenTelemetry (OTLP/JSON)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened &quot;%1&quot; (upgraded from format %2; saving writes the new format).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be opened: %2

The conversation you had open is unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clear the List</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the changes?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; has changes that are not saved in a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every finished turn is also kept in the session library.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the example</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened the example &quot;%1&quot;: replay it from the Debug menu, no provider needed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save Session As</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save the session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be written: %2

Nothing was lost: the conversation is still open.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import OpenAI Messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON files (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot import</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported %1 messages.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Markdown (*.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTML (*.html)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OTLP JSON (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Autosave into the session library failed: %1

Save As writes the conversation to a file elsewhere; Discard loses what is not saved.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::SessionLibraryPanel</name>
    <message>
        <source>Untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Updated</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Delete…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rename</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved sessions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sessions matching the search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Session library status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete the selected session&apos;s file, after asking (Delete)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a new conversation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Change the selected session&apos;s title (F2); its file keeps its name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This file cannot be opened: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Searching…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No session mentions “%1”.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n session(s) mention “%1”.</source>
        <translation>
            <numerusform>%n session mentions “%1”.</numerusform>
            <numerusform>%n sessions mention “%1”.</numerusform>
        </translation>
    </message>
    <message>
        <source>No saved sessions yet: each finished turn is saved here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n saved session(s)</source>
        <translation>
            <numerusform>%n saved session</numerusform>
            <numerusform>%n saved sessions</numerusform>
        </translation>
    </message>
    <message>
        <source>Today %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Yesterday %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n day(s) ago</source>
        <translation>
            <numerusform>%n day ago</numerusform>
            <numerusform>%n days ago</numerusform>
        </translation>
    </message>
    <message>
        <source>Delete Session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete “%1”? Its file is removed from the disk.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::SessionStatusBar</name>
    <message>
        <source>Paused in the debugger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for a decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider and model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loop state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tokens: %1%L2 this turn · %1%L3 this session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1%2 · %1%3 tokens</source>
        <extracomment>The status bar&apos;s token counts in a narrow window: this turn · this session</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cost: %1 this turn · %2 this session</source>
        <extracomment>The status bar&apos;s cost in USD; &quot;—&quot; when no model call had a known price</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Iteration %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No iteration yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last request&apos;s tokens, as the provider counted them, plus its answer, against the model&apos;s context window (from the provider profile, the provider itself, or the price table).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 · %2 (agent %3)</source>
        <extracomment>%1 provider profile, %2 model, %3 the agent that runs on them</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 answered; next turn: %2</source>
        <extracomment>%1 what answered the last turn, %2 what the next turn goes to</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings pages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Providers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Appearance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;MCP Servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not every key was saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Knowledge</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ShieldsEditor</name>
    <message>
        <source>Shield rules</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remo&amp;ve rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove rule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask a model whether the question and the answer are sa&amp;fe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model shield</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model shield name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model shield model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T&amp;he question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The ans&amp;wer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the verdict is unclear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model shield prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore the &amp;default prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restore the default prompt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyword or pattern</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regular expression</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only these tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message when it blocks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first rule that matches blocks the step. A keyword matches as a whole word in any case; a regular expression as written. &quot;Only these tools&quot;: tool names separated by commas, empty for every tool.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Block</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The categories the model judges by and how it must answer (&quot;safe&quot;, or &quot;unsafe&quot; and the categories). {role} becomes User or Agent, {conversation} the question (and the answer).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Guard model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checks:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When un&amp;clear:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classif&amp;ier prompt:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A model shield is a model call before the first request and after the answer: its tokens and cost count for the turn, and the trace shows each check with its call.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule %1 (&quot;%2&quot;) looks at no stage: tick the question, the tool arguments or the answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rule %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model shield checks nothing: tick the question, the answer or both.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model shield&apos;s prompt must contain {conversation}, where the message to judge goes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model shield provider profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The conversation&apos;s own provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider&apos;s own model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider profile:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (no such profile)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::SourceViewer</name>
    <message>
        <source>Problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in Default App</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The passage cannot be shown in its file: %1. Its text as it was found is in the details pane.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file changed since it was indexed: it has %1 lines now, and the passage began at line %2. Re-index the knowledge base to search it as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file changed since it was indexed: lines %1–%2 no longer hold the passage found. Re-index the knowledge base to search it as it is.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::SourcesLine</name>
    <message>
        <source>Sources</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sources: %1</source>
        <extracomment>Under an answer: the passages of the user&apos;s documents it drew on, each a link</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ToolCallCard</name>
    <message>
        <source>Arguments</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool call %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the details of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show or hide the arguments and the result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hide the details of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for your approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused at a breakpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blocked by a safety check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 › %2</source>
        <extracomment>The title of a tool call a sub-agent made: the agent&apos;s name, then the tool&apos;s</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool call %1 of the agent %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::ToolsPage</name>
    <message>
        <source>Built-in tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before it runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enable %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approval for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run without asking</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask me first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Always allowed from the chat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool calls always allowed within a folder, command prefix or host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remo&amp;ve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected rule: its calls are asked about again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added when you choose “Always allow” for a folder, a command prefix or a host on an approval in the chat.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workspace folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the workspace folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Workspace &amp;folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fetch_url may reach this computer and the &amp;local network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allow fetch_url to reach private addresses</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Off: fetch_url refuses loopback and private network addresses (localhost, 192.168.x.x, 10.x.x.x, …), so a model cannot reach your router or services running on this computer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The workspace folder %1 does not exist.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: commands starting with “%2”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the Workspace Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file tools read and write only inside this folder; run_command starts in it. The default, %1, is a folder of their own, made when a turn first offers them.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::TraceDetailsPane</name>
    <message>
        <source>Next Match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous Match</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy as JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy as curl</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timing and tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search the details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step as JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a step in the trace to see its request, response, arguments or result.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy this step, as shown, to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy a curl command that replays the last attempt of this model call (credentials are masked)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request as sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request body as it went to the provider, keys in the order sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Views of the step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The whole step as JSON, with search</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the approval showed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the approval showed when you decided: the diff, the command, the address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all of the JSON</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Long steps show their beginning; this shows the whole text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No step selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show all %L1 lines (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <extracomment>The details pane&apos;s title: the kind of step, then its label</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>still running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>took %1 (%2 working, %3 waiting for you)</source>
        <extracomment>The details pane: a step&apos;s whole time, the machine&apos;s part, the part spent waiting for the user</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>took %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ended %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 tokens (%2 in, %3 out)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cost %1</source>
        <extracomment>A step&apos;s cost in USD in the details pane, e.g. &quot;cost $0.0123&quot;; &quot;—&quot; when unknown</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context %1</source>
        <extracomment>The request&apos;s tokens against the model&apos;s context window, e.g. &quot;context 12.3k / 128k tokens&quot;</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for a decision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allowed once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allowed always</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allowed always (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>you gave the result instead of running the tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>you answered the server&apos;s question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>you declined to answer the server&apos;s question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the server&apos;s question was cancelled unanswered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled before anyone decided</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, arguments edited</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1; retried after %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <extracomment>Search position, e.g. &quot;2 of 7&quot;</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Passages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The passages the search found, best first: click a file to open it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about %1 → %2 tokens of a %3-token window</source>
        <extracomment>The details pane: a compaction&apos;s estimated request size before and after, and the window</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>knowledge bases %1</source>
        <extracomment>A retrieval in the details pane: the knowledge bases it searched</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>searching %1</source>
        <extracomment>A retrieval in the details pane: the time spent searching the indexes</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>embedding with %1 %2</source>
        <extracomment>A retrieval in the details pane: the embedding model and the time spent embedding the query</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>context window %1 tokens (num_ctx sent to Ollama)</source>
        <extracomment>The details pane: the context window sent to Ollama with a model call</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent %1, version %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::TraceFilterBar</name>
    <message>
        <source>Errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kinds to show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only some kinds of steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All Kinds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only calls of tools whose name contains this text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Errors only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only steps that failed, were blocked or were denied</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show every step again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All kinds</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n kind(s)</source>
        <translation>
            <numerusform>%n kind</numerusform>
            <numerusform>%n kinds</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::TraceInspector</name>
    <message>
        <source>Trace inspector</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Follow new steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scroll to new steps as the agent adds them</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trace tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeline of the turn</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::TraceTimeline</name>
    <message>
        <source>Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n step(s) of the turn on a time axis</source>
        <translation>
            <numerusform>%n step of the turn on a time axis</numerusform>
            <numerusform>%n steps of the turn on a time axis</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No turn to show yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model or tool calls in this turn yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>took %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
%2 · %3
started %4 before the turn</source>
        <extracomment>Tooltip of a step that began before its turn (an MCP server&apos;s start-up the turn waited for)</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
%2 · %3
started at +%4 %5</source>
        <extracomment>Tooltip of a timeline bar: label, kind, status, start offset, duration</extracomment>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::Ui::TurnActions</name>
    <message>
        <source>&amp;Replay Turn…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Fork From Here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Co&amp;mpare Turns…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Compare With…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-run in &amp;Playground…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-run the selected turn from its recorded responses, without network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a new session with the conversation up to the selected turn or iteration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show two turns side by side, step by step, with their first difference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare the selected turn with another turn or session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Edit the selected model call&apos;s request and send it to any provider, beside its recorded answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>turn %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, turn %2 as recorded</source>
        <extracomment>The recorded turn a replay is compared with</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forked into a new session: &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot fork: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>this session</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This replay has no turn to compare yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a model call in the trace to re-run it.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::UrlOpener</name>
    <message>
        <source>the browser command “%1” from $BROWSER could not be started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no browser could be opened; set $BROWSER or open this address yourself: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Loopscope::WriteFileTool</name>
    <message>
        <source>The content is %1 bytes, more than the %2 bytes write_file accepts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write &apos;%1&apos;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overwrote &apos;%1&apos; with %2 bytes (%3 lines); it had %4 bytes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Created &apos;%1&apos; with %2 bytes (%3 lines).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>McpCommand</name>
    <message>
        <source>failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not started</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>ready (protocol %1, %n tool(s))</source>
        <translation>
            <numerusform>ready (protocol %1, %n tool)</numerusform>
            <numerusform>ready (protocol %1, %n tools)</numerusform>
        </translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The MCP server “%1” did not start.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the call was cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the tool reported an error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>progress: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled by the user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>more than one MCP server offers the tool &quot;%1&quot;: %2; name one as server/tool</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no ready MCP server offers the tool &quot;%1&quot;, and some did not start: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no MCP server offers the tool &quot;%1&quot;: they offer no tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no MCP server offers the tool &quot;%1&quot;: the tools are %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>call: the tool to call.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>call: its arguments as a JSON object (default {}).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>list takes no arguments (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>call takes a tool and, optionally, its arguments as JSON (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--approve takes all or none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the arguments are not valid JSON: %1 (at character %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the arguments must be a JSON object, like {&quot;a&quot;: 1}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no MCP server is configured (use --mcp-config or --mcp-url)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No MCP server is configured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; asked &quot;%2&quot;: accepted with the defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; asked &quot;%2&quot;: declined</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added the MCP server &quot;%1&quot;, which runs: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added the MCP server &quot;%1&quot; at %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kept in the key file, not in the settings: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kept in the keychain, not in the settings: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add takes a name, then -- COMMAND ARGS… or --url URL (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add takes one name; put the server&apos;s command after -- (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add needs -- COMMAND ARGS… or --url URL (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add takes either -- COMMAND ARGS… or --url URL, not both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--header is for a server reached over HTTP (--url)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--env is for a server started as a command (-- COMMAND ARGS…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing was added; without a keychain, add it with --key-file to keep its secrets in a file only you can read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>remove takes the name of one server (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Removed the MCP server &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add: the server&apos;s Streamable HTTP endpoint.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add: an HTTP header sent with every request; repeatable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add: an environment variable for the command; repeatable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add: keep the server&apos;s secrets in the key file only you can read instead of the keychain (for a desktop without one).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to do: add, remove, list or call.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 is for add (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 is for list and call; %2 changes the saved servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the commands are add, remove, list and call (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>add NAME -- COMMAND [ARGS…]: save a server that runs as a command (over stdio).
add NAME --url URL [--header &apos;Name: value&apos;]…: save a server reached over Streamable HTTP.
  Both save it as Settings → MCP Servers does: on, asking before each tool call, secret
  header values and variables (Authorization, …_TOKEN, …) in the keychain, never in the
  settings file.
remove NAME: forget a saved server and its secrets.
list: connect to each MCP server, print its state and tools, and end it again.
call TOOL [ARGUMENTS]: connect to the servers, call the one tool of that name (its MCP
name, the name the model sees, or server/tool) with a JSON object of arguments (default
{}), print the result on stdout and progress on stderr, and end the servers again. A form
the server asks for (elicitation) is accepted with the fields&apos; default values under
--approve all, else declined. A model call it asks for (sampling) runs as asked on the
provider and model of --provider, --model, --base-url and --api-key-env (as for run)
under --approve all, else it is declined. Ctrl+C cancels the call.

Exit codes:
  0    add, remove: done; list: every server is ready; call: the tool answered
  1    add, remove: the keychain refused a secret; list: one or more failed; call: the
       tool reported an error (its text on stdout), or the call or a server failed
  2    bad usage: unknown option, invalid JSON, an unknown or ambiguous tool, a name
       already taken or not found
  130  cancelled by SIGINT (Ctrl+C) or SIGTERM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>call: forms the server asks for are accepted with their default values and model calls it asks for run (all), or both are declined (none). Default: none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the provider options are for call (the model calls a server asks for)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no API key: set the environment variable %1, or name another with --api-key-env</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; asked for a model call: declined (name the provider with --provider and --model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; asked for a model call: declined (it needs --approve all)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; asked for a model call: running it on %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>McpServerOptions</name>
    <message>
        <source>Use the MCP servers of this file ({&quot;mcpServers&quot;: {…}}, as Claude Desktop and .mcp.json write it); repeatable. Without it: the servers enabled in the saved settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Also use the Streamable HTTP MCP server at this URL, named after its host:port (e.g. 127.0.0.1:8080); repeatable. Without --mcp-config: instead of the saved servers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use only this MCP server; repeatable.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use no MCP server, not even the saved ones.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--no-mcp cannot be combined with --mcp-config, --mcp-url or --mcp-server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; is configured twice (in &quot;%2&quot; again)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--mcp-url takes an http:// or https:// address, not &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; is configured twice (--mcp-url &quot;%2&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no MCP server &quot;%1&quot;: none is configured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no MCP server &quot;%1&quot;: the servers are %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no keychain on this desktop, so the saved MCP servers %1 start without the secrets kept in it (add them again with --key-file, or use --mcp-config)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>NdjsonParser</name>
    <message>
        <source>Line %1 of the JSON stream is longer than %2 bytes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line %1 of the JSON stream is not valid JSON: %2 at offset %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Line %1 of the JSON stream is not a JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PlaygroundRequest</name>
    <message>
        <source>The request is not valid JSON at character %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request must be a JSON object.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request needs a non-empty &quot;messages&quot; array.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message %1 needs a &quot;role&quot;: system, user, assistant or tool.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message %1 has a tool call without a &quot;name&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;tools&quot; must be an array.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;options&quot; must be an object.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PlaygroundWindow</name>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation type="vanished">
            <numerusform>%n token</numerusform>
            <numerusform>%n tokens</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ProviderOptions</name>
    <message>
        <source>Wire protocol: openai (also Ollama /v1, llama.cpp, vLLM, LM Studio, OpenRouter), anthropic, gemini or ollama.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The API&apos;s base URL, e.g. https://api.openai.com/v1 or http://localhost:11434. Default: the provider&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The environment variable holding the API key. Default: OPENAI_API_KEY, ANTHROPIC_API_KEY or GEMINI_API_KEY (Ollama needs none).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown provider &quot;%1&quot;: use openai, anthropic, gemini or ollama</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the base URL &quot;%1&quot; is not an http(s) URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (command line)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>with --model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name the model %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>The model list has no ᳚ta” array.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model list&apos;s “models” is not an array.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model list has no “models” array.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider sent a malformed stream chunk (%1): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The stream ended before the response was complete.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider reported an error in the stream: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider reported an error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The provider&apos;s response has no choices.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RecordedTurn</name>
    <message>
        <source>The trace node is not a turn.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The turn was still running when the session was saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model call was recorded: the turn ended (%1) before it asked the model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first recorded request does not end with the turn&apos;s question.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session&apos;s trace is malformed: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReplayCommand</name>
    <message>
        <source>Replay the turns of a saved session from their recorded model responses, without a network,
and report for each whether it reproduced: the same requests to the model, the same tool
calls and the same answer. Tool results come from the recording too, unless --live-tools.

Exit codes:
  0  every turn that could be replayed reproduced
  1  at least one turn diverged or ended differently
  2  bad usage, an unreadable or malformed file, or nothing to replay
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay only turn n (from 1, as listed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run the built-in tools instead of using their recorded results.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder file tools may read with --live-tools (default: the current folder).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A saved session (*.loopscope.json).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give exactly one saved session file (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--turn takes a turn number from 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the workspace &quot;%1&quot; is not a folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot replay &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; has no turns to replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; has %2 turns, not %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>turn %1: skipped: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>turn %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no turn could be replayed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReplayReport</name>
    <message>
        <source>reproduced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not reproduced</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not reproduced: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ReplayWorkbench</name>
    <message>
        <source>The tool %1 is not available here: only its recorded results can be replayed.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RequestComparison</name>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>message %1 (%2) differs: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>message %1 (%2) is new: the recording has %3 messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>message %1 (%2) is missing: the replay has %3 messages</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the tool choice differs: recorded %1, now %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>system message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>user message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>assistant message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>assistant message calling %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool result of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recorded %1, now %2</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunCommand</name>
    <message>
        <source>Run one turn of the agent and print its answer on stdout.
The API key is read from an environment variable, never from the command line.

</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A system instruction.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most model calls in the tool loop (default 10).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the loop ends on tool results: reflect (one more model call without tools) or summary (a line per tool call, no model call). Default: reflect.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask for whole responses, not streams.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comma-separated built-in tools (%1), or all. Default: none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The folder file tools may read (default: the current folder).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the live event stream as JSON Lines to a file, or to stdout with -. With -, the answer is not printed again: it is in the &quot;finished&quot; event.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the whole trace tree as JSON to a file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue the saved session in this file (*.loopscope.json), creating it if missing, and save it back after the turn.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to ask the agent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--max-iterations takes a number from 1 to 1000</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--post-loop takes reflect or summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown tool &quot;%1&quot;: the built-in tools are %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the workspace &quot;%1&quot; is not a folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--approve takes all or none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give exactly one prompt, in quotes (see --help)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>note: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot continue the session &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write the trace to &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot save the session to &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reached the limit of %1 iterations: the last answer was forced without tools</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no API key: set the environment variable %1, or name another with --api-key-env</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write the events to &quot;%1&quot;: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; asked &quot;%2&quot;: accepted with the defaults</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; asked &quot;%2&quot;: declined</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tool calls: all runs them, none denies every one (the model is told). Default: the read-only built-in tools run; write_file, edit_file, run_command, fetch_url and MCP tools only with an explicit all (or --approve-tools).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Comma-separated built-in tools that may run; every other tool call is denied (the model is told why). Instead of --approve.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let fetch_url reach loopback and private network addresses (refused by default).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give either --approve or --approve-tools, not both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--approve-tools: unknown tool &quot;%1&quot;: the built-in tools are %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot write the events to &quot;%1&quot;: %2; the rest of the stream is lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--agent needs --agents, the file that describes it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give either --system or --agents (the agent&apos;s instructions), not both</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent &quot;%1&quot; has the tool &quot;%2&quot;, which is not built in (%3) and no MCP server was given to offer it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An agents file (JSON, see the README): the turn runs as one of its agents, with its instructions, model, tools and options. A bad file is bad usage.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The agent of --agents to run as (default: the file&apos;s first).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What an agent&apos;s transfer_to_NAME does: continue (the same turn goes on as that agent) or end (the turn ends, handed off). Default: continue; an agent&apos;s on_handoff wins.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the agent handed to sees: all (the whole conversation) or text (without the tool calls of the agent that handed off). Default: all.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The most handoffs that continue one turn; the next one ends it (default 5).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A knowledge base (see loopscope knowledge) the model may search with knowledge_search, which only reads and always runs. Repeatable. An unknown base is bad usage.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send a file with the prompt (repeatable): an image (PNG, JPEG, WebP, GIF) as an image, a text, Markdown, code, JSON or CSV file or a PDF&apos;s text as text. A file that cannot be sent is bad usage.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send attached images even to a model known to read text only (refused by default, before any request).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--on-handoff takes continue or end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--handoff-history takes all or text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--max-handoffs takes a number from 0 to 100</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--retrieve takes tool or auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>To send the image all the same, add --send-images-anyway.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--shield-model needs a model name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; asked for a model call: running it on %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the MCP server &quot;%1&quot; asked for a model call: declined (it needs --approve all)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>MCP servers: their tools join the built-in ones. They run only with an explicit
--approve all, which also accepts their forms (elicitations) with the fields&apos;
default values, or declines a form whose required fields have none, and runs
the model calls they ask for (sampling) on this run&apos;s provider and model;
otherwise their calls are denied (the model is told), every form and model
call declined. The servers end with the run.

Exit codes:
  0    the agent answered (or handed off to another agent), also when the
       iteration limit forced the last answer without tools (outcome
       forced_final in the finished event; a note on stderr says so)
  1    the provider could not be reached or answered with an error
  2    bad usage: unknown option or value, missing API key, unwritable file,
       a file --attach cannot send, an image for a model known to read text only
  3    limit reached: no answer within the iteration limit, too many tool
       errors in a row, the token budget was used up, or the time limit ran out
  4    a safety shield blocked the input or the answer
  130  cancelled by SIGINT (Ctrl+C), SIGTERM or SIGHUP; the turn ends cleanly
</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent &quot;%1&quot; has every tool of the MCP server &quot;%2&quot;, and this run has no MCP server (none saved, --mcp-config or --mcp-url)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent &quot;%1&quot; has every tool of the MCP server &quot;%2&quot;, which is not one of this run&apos;s MCP servers (%3)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A model shield: ask this model (e.g. llama-guard3) of the run&apos;s provider, or of --shield-provider&apos;s profile, whether the prompt and the answer are safe, with the Llama Guard 3 categories; unsafe or unclear blocks (exit 4). An agent with its own &quot;shields&quot; uses those instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The saved provider profile the model shield asks (e.g. a local Ollama with llama-guard3), with its key as the profile says; its model unless --shield-model names one. Default: the run&apos;s provider.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How the --knowledge bases are used: tool (the model searches them with knowledge_search when it wants to) or auto (the question is also searched before the first iteration and the best passages go into the request as context; knowledge_search stays offered; with --agents, the bases of the agent the turn starts as are searched).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--shield-provider needs the name of a saved provider profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model shield (--shield-provider)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--retrieve auto needs a knowledge base to search (--knowledge, or the agent&apos;s &quot;knowledge&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunComparison</name>
    <message numerus="yes">
        <source>%1 · %n token(s)</source>
        <extracomment>An iteration&apos;s time and tokens in a comparison, e.g. &quot;1.20 s · 540 tokens&quot;</extracomment>
        <translation>
            <numerusform>%1 · %n token</numerusform>
            <numerusform>%1 · %n tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 · %n message(s)</source>
        <translation>
            <numerusform>%1 · %n message</numerusform>
            <numerusform>%1 · %n messages</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n tool(s)</source>
        <translation>
            <numerusform> · %n tool</numerusform>
            <numerusform> · %n tools</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (%n iteration(s) against %1)</source>
        <translation>
            <numerusform> (%n iteration against %1)</numerusform>
            <numerusform> (%n iterations against %1)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n message(s) against %1</source>
        <translation>
            <numerusform>%n message against %1</numerusform>
            <numerusform>%n messages against %1</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (+%2 waiting)</source>
        <extracomment>A step&apos;s time in a comparison: the machine&apos;s part, then the part spent waiting for the user</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in · %2 out</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>question</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the questions differ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reflection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>iteration %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only the left run has it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only the right run has it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model requests differ: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only the left run asks the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only the right run asks the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model&apos;s responses differ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 arguments differ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only the left run calls %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>only the right run calls %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 results differ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the errors differ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the answers differ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>outcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the outcomes differ (%1 against %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>identical</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>same steps; %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>diverged at the reflection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>diverged at iteration %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>temperature: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>output token limit: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool choice: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tool %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>message %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the model differs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the temperature differs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the output token limit differs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the tools offered differ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the tool choice differs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>message %1 (%2) differs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, version %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>agent</source>
        <extracomment>The agent a turn started as; then those a handoff went on as</extracomment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>handed to</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top p: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>top p differs</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SessionLibraryPanel</name>
    <message numerus="yes">
        <source>%n session(s) mention “%1”.</source>
        <translation type="vanished">
            <numerusform>%n session mention “%1”.</numerusform>
            <numerusform>%n sessions mention “%1”.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n saved session(s)</source>
        <translation type="vanished">
            <numerusform>%n saved session</numerusform>
            <numerusform>%n saved sessions</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n day(s) ago</source>
        <translation type="vanished">
            <numerusform>%n day ago</numerusform>
            <numerusform>%n days ago</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SessionSetup</name>
    <message>
        <source>The environment variable %1 that &quot;%2&quot; takes its key from is not set: set it and start Loopscope again, or enter a key in Settings → Providers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No API key is stored for &quot;%1&quot;: enter one in Settings → Providers, or name an environment variable that holds it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keychain is available on this desktop to hold the key for &quot;%1&quot;: in Settings → Providers, name an environment variable that holds it, or store it in a file only you can read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The keychain could not give the key for &quot;%1&quot; (%2): unlock the keychain, or name an environment variable that holds the key in Settings → Providers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The key file could not give the key for &quot;%1&quot;: %2 Then enter the key again in Settings → Providers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Agent &quot;%1&quot; runs on the provider profile &quot;%2&quot;, which does not exist: add it in Settings → Providers, or choose another for the agent.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SseParser</name>
    <message>
        <source>The event stream sent a line or event larger than %1 bytes.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SubAgentTool</name>
    <message numerus="yes">
        <source>%1 reached its limit of %n iteration(s) without an answer: %2</source>
        <translation>
            <numerusform>%1 reached its limit of %n iteration without an answer: %2</numerusform>
            <numerusform>%1 reached its limit of %n iterations without an answer: %2</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 did not answer: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Say in &quot;task&quot; what %1 should do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 was not asked: sub-agents may be nested at most %n deep, and this call would go deeper. Do the task yourself or answer with what you have.</source>
        <translation>
            <numerusform>%1 was not asked: sub-agents may be nested at most %n deep, and this call would go deeper. Do the task yourself or answer with what you have.</numerusform>
            <numerusform>%1 was not asked: sub-agents may be nested at most %n deep, and this call would go deeper. Do the task yourself or answer with what you have.</numerusform>
        </translation>
    </message>
    <message>
        <source>There is no agent named %1 to ask.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be asked: there is no provider to run it with.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TraceFilterBar</name>
    <message numerus="yes">
        <source>%n kind(s)</source>
        <translation type="vanished">
            <numerusform>%n kind</numerusform>
            <numerusform>%n kinds</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TraceTimeline</name>
    <message numerus="yes">
        <source>%n step(s) of the turn on a time axis</source>
        <translation type="vanished">
            <numerusform>%n step of the turn on a time axis</numerusform>
            <numerusform>%n steps of the turn on a time axis</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TranscriptFork</name>
    <message>
        <source>A fork keeps from 0 to %1 messages, not %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message %1 calls tools whose results come after it: fork after the results.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session&apos;s trace is malformed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (fork)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session&apos;s trace is malformed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The session has no turn %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1 has no iteration %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn %1 was asked again later (regenerated or edited): its messages are no longer in the conversation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The tool results of iteration %1 of turn %2 are not in the conversation.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>VariantFork</name>
    <message numerus="yes">
        <source>This response calls %n tool(s), which would have no results: fork from a response that answers in text, or edit the request so that it does.</source>
        <translation>
            <numerusform>This response calls %n tool, which would have no results: fork from a response that answers in text, or edit the request so that it does.</numerusform>
            <numerusform>This response calls %n tools, which would have no results: fork from a response that answers in text, or edit the request so that it does.</numerusform>
        </translation>
    </message>
    <message>
        <source>This re-run failed (%1): there is no response to fork with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot fork here: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>open one session at a time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Headless commands:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(each with --help).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chat with an LLM agent and see, step by step, what its tool loop does.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A saved session (*.loopscope.json) to open, or a loopscope://mcp/install link to add an MCP server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your agents could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
