// The Vercel AI SDK running the same benchmark as loopscope-bench, for comparison: R turns of K tool
// rounds with P parallel calls against any server that plays the loop-K-P contract (the model
// "loop-K-P" asks for P parallel `add` calls per round for K rounds, then answers with the sum of
// every result). Same options and the same last line as loopscope-bench.
//
//   (cd tests/bench/aisdk && npm ci)
//   build-bench/tests/bench/loopscope-bench-server --port 8765 &
//   node tests/bench/aisdk/loopbench.mjs --port 8765 --rounds 50 --parallel 4 --repeat 5 --stream 1

import { createOpenAI } from '@ai-sdk/openai';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { parseArgs } from 'node:util';
import { z } from 'zod';

function fail(message, code) {
  process.stderr.write(`aisdk-bench: ${message}\n`);
  process.exit(code);
}

function number(values, name, min, max) {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min || value > max)
    fail(`--${name} wants a number from ${min} to ${max}`, 2);
  return value;
}

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    rounds: { type: 'string', default: '50' },
    parallel: { type: 'string', default: '4' },
    repeat: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
    stream: { type: 'string', default: '1' },
  },
});
if (values.port === undefined) fail('pass --port N of a running loop-K-P server', 2);
const port = number(values, 'port', 1, 65535);
const rounds = number(values, 'rounds', 0, 100000);
const parallel = number(values, 'parallel', 1, 1000);
const repeat = number(values, 'repeat', 1, 100000);
const warmup = number(values, 'warmup', 0, 1000);
const stream = number(values, 'stream', 0, 1) === 1;
const iterationsPerRun = rounds + 1;

const openai = createOpenAI({
  baseURL: `http://127.0.0.1:${port}/v1`,
  apiKey: 'sk-bench-0123456789abcdefghijklmnopqrstuvwxyz',
});
const model = openai.chat(`loop-${rounds}-${parallel}`); // Chat Completions, as the server speaks

// What the tool really received: the expected answer, independent of the server.
let ledger = { sum: 0, calls: 0 };
const tools = {
  add: tool({
    description: 'Adds two integers and returns the sum.',
    inputSchema: z.object({ a: z.number().int(), b: z.number().int() }),
    execute: async ({ a, b }) => {
      ledger.sum += a + b;
      ledger.calls += 1;
      return a + b; // a number, so the tool message's content is its JSON text: "42"
    },
  }),
};

async function runTurn() {
  ledger = { sum: 0, calls: 0 };
  const options = {
    model,
    tools,
    maxRetries: 0, // a retry would hide a server fault and distort the timing
    stopWhen: stepCountIs(iterationsPerRun),
    prompt: 'Call add as the rounds require, then tell me the total of all results.',
  };
  let text;
  let steps;
  if (stream) {
    const result = streamText({ ...options, onError: ({ error }) => fail(String(error), 1) });
    text = await result.text;
    steps = (await result.steps).length;
  } else {
    const result = await generateText(options);
    text = result.text;
    steps = result.steps.length;
  }
  if (steps !== iterationsPerRun) fail(`took ${steps} steps, expected ${iterationsPerRun}`, 1);
  if (ledger.calls !== rounds * parallel)
    fail(`the tool ran ${ledger.calls} times, expected ${rounds * parallel}`, 1);
  // The sum as a number anywhere in the answer, not one server's exact sentence.
  const numbers = (text.match(/-?\d+/g) ?? []).map(Number);
  if (!numbers.includes(ledger.sum)) fail(`wrong answer "${text}", expected it to contain ${ledger.sum}`, 1);
}

const cpuMs = (usage) => ({ user: usage.user / 1000, system: usage.system / 1000 });
const fixed = (value, decimals = 3) => value.toFixed(decimals);

const warmStart = process.cpuUsage();
const warmWall = performance.now();
for (let i = 0; i < warmup; ++i) await runTurn();
if (warmup > 0) {
  const cpu = cpuMs(process.cpuUsage(warmStart));
  process.stdout.write(
    `warm-up: ${warmup} turn(s), ${fixed((performance.now() - warmWall) / warmup, 1)} ms wall per turn, ` +
      `${fixed((cpu.user + cpu.system) / (warmup * iterationsPerRun))} ms CPU per iteration\n`,
  );
}

const before = process.cpuUsage();
const wallStart = performance.now();
for (let i = 0; i < repeat; ++i) await runTurn();
const wallMs = performance.now() - wallStart;
const cpu = cpuMs(process.cpuUsage(before));
const iterations = repeat * iterationsPerRun;
const maxRssMb = process.resourceUsage().maxRSS / 1024; // KiB
process.stdout.write(
  `client CPU: ${fixed((cpu.user + cpu.system) / iterations)} ms per iteration ` +
    `(user ${fixed(cpu.user, 1)} ms + sys ${fixed(cpu.system, 1)} ms over ${iterations} iterations), ` +
    `peak RSS ${fixed(maxRssMb, 1)} MB\n`,
);
process.stdout.write(
  // The keys of loopscope-bench's line, in its order.
  JSON.stringify({
    rounds,
    parallel,
    repeat,
    stream: stream ? 1 : 0,
    ms_per_run: Number(fixed(wallMs / repeat)),
    ms_per_iteration: Number(fixed(wallMs / iterations)),
    cpu_user_ms: Number(fixed(cpu.user)),
    cpu_sys_ms: Number(fixed(cpu.system)),
    max_rss_mb: Number(fixed(maxRssMb, 2)),
    cpu_ms_per_iteration: Number(fixed((cpu.user + cpu.system) / iterations)),
    warmup,
    client: 'aisdk',
  }) + '\n',
);
