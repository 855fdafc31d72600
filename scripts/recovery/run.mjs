#!/usr/bin/env node
// The recovery benchmark's runner: for each scenario and each rendering of
// its failure (renderings.json, written by `cargo run -p envelope-test-suite
// --example recovery --features host,jsonschema`), a local GGUF model reads
// the failure and answers its next action; the answer is scored against the
// scenario's gold answers. See README.md.
//
// Usage:
//   node run.mjs --model PATH.gguf --renderings renderings.json
//       [--only RENDERING,...] [--scenarios ID,...]
//       [--samples N] [--temperature T] [--seed S] [--max-tokens N]
//       [--out results.json]
//
// CPU only, one thread, greedy decoding unless --temperature > 0 (then
// sample i of a run uses seed S + i). No repeat penalty: an answer repeats
// the call's JSON on purpose.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { getLlama, LlamaChatSession, LlamaLogLevel } from "node-llama-cpp";

const here = path.dirname(fileURLToPath(import.meta.url));

const USAGE = `usage: node run.mjs --model PATH.gguf --renderings renderings.json
    [--only RENDERING,...] [--scenarios ID,...]
    [--samples N] [--temperature T] [--seed S] [--max-tokens N] [--out results.json]
    [--scenarios-file scenarios.json] [--tools-file tools.json] [--context-size N]
    [--fresh]   (evaluate every run's whole prompt, no shared prefix: slower, for checking)`;

const { values: options } = parseArgs({
    options: {
        model: { type: "string" },
        renderings: { type: "string" },
        only: { type: "string" },
        scenarios: { type: "string" },
        samples: { type: "string", default: "1" },
        temperature: { type: "string", default: "0" },
        seed: { type: "string", default: "1" },
        "max-tokens": { type: "string", default: "200" },
        "context-size": { type: "string", default: "4096" },
        out: { type: "string" },
        "scenarios-file": { type: "string", default: path.join(here, "scenarios.json") },
        "tools-file": { type: "string", default: path.join(here, "tools.json") },
        fresh: { type: "boolean", default: false },
        help: { type: "boolean", short: "h" },
    },
});
if (options.help || !options.model || !options.renderings) {
    console.error(USAGE);
    process.exit(options.help ? 0 : 2);
}

const samples = positiveInteger("samples");
const temperature = Number(options.temperature);
const seed = Number.parseInt(options.seed, 10);
const maxTokens = positiveInteger("max-tokens");
const contextSize = positiveInteger("context-size");
if (!(temperature >= 0) || !Number.isInteger(seed)) {
    console.error(USAGE);
    process.exit(2);
}

function positiveInteger(name) {
    const value = Number.parseInt(options[name], 10);
    if (!(value > 0)) {
        console.error(`--${name} must be a positive integer\n${USAGE}`);
        process.exit(2);
    }
    return value;
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf8"));
const list = (text) => (text ?? "").split(",").map((item) => item.trim()).filter(Boolean);

const scenarios = readJson(options["scenarios-file"]);
const tools = readJson(options["tools-file"]);
const renderingsDocument = readJson(options.renderings);
const renderingsById = new Map(renderingsDocument.scenarios.map((entry) => [entry.id, entry.renderings]));

// The renderings the file has: the known ones in this order, then any other.
const ORDER = ["json", "text", "mcp_text", "sep3313", "model_text", "python_sdk", "ts_sdk"];
const rank = (name) => (ORDER.includes(name) ? ORDER.indexOf(name) : ORDER.length);
const allRenderings = Object.keys(renderingsDocument.scenarios[0]?.renderings ?? {}).sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
);
const renderings = options.only ? list(options.only) : allRenderings;
for (const name of renderings) {
    if (!allRenderings.includes(name)) fail(`no rendering ${name} in ${options.renderings} (${allRenderings.join(", ")})`);
}
const wanted = options.scenarios ? list(options.scenarios) : scenarios.map((scenario) => scenario.id);
for (const id of wanted) {
    if (!scenarios.some((scenario) => scenario.id === id)) fail(`no scenario ${id} in ${options["scenarios-file"]}`);
    if (!renderingsById.has(id)) fail(`no renderings of scenario ${id} in ${options.renderings}`);
}
const chosen = scenarios.filter((scenario) => wanted.includes(scenario.id));

function fail(message) {
    console.error(message);
    process.exit(2);
}

// The system prompt: the same for every run, so its tokens are evaluated once.
function describeTool(tool) {
    const args = Object.entries(tool.arguments);
    const shown = args.length === 0 ? "none" : args.map(([name, type]) => `${name} (${type})`).join(", ");
    return `- ${tool.name}: ${tool.description} Arguments: ${shown}.`;
}

const SYSTEM_PROMPT = [
    "You act for the user through these tools:",
    "",
    ...tools.map(describeTool),
    "",
    "After the user's task and after each tool result, answer with exactly one JSON object and nothing else, one of:",
    '{"action":"call","tool":NAME,"arguments":{...}} to call a tool now;',
    '{"action":"wait_then_call","wait_ms":N,"tool":NAME,"arguments":{...}} to wait, then call a tool;',
    '{"action":"ask_user","message":TEXT} to ask the user for something only they can do or decide;',
    '{"action":"give_up","message":TEXT} to stop and tell the user the task failed.',
].join("\n");

/** The conversation up to the model's answer: system, task, the failed call. */
function history(scenario) {
    return [
        { type: "system", text: SYSTEM_PROMPT },
        { type: "user", text: scenario.task },
        {
            type: "model",
            response: [JSON.stringify({ action: "call", tool: scenario.call.tool, arguments: scenario.call.arguments })],
        },
    ];
}

/** The user turn that carries the failure. */
function resultTurn(scenario, rendering) {
    return `Result of ${scenario.call.tool}:\n${rendering}`;
}

/** The first JSON object in `text` (```json fences tolerated), or null. */
function firstJsonObject(text) {
    const unfenced = text.replace(/```(?:json)?/gi, "");
    for (let start = unfenced.indexOf("{"); start !== -1; start = unfenced.indexOf("{", start + 1)) {
        let depth = 0;
        let inString = false;
        let escaped = false;
        for (let i = start; i < unfenced.length; i++) {
            const c = unfenced[i];
            if (inString) {
                if (escaped) escaped = false;
                else if (c === "\\") escaped = true;
                else if (c === '"') inString = false;
                continue;
            }
            if (c === '"') inString = true;
            else if (c === "{") depth++;
            else if (c === "}" && --depth === 0) {
                try {
                    const value = JSON.parse(unfenced.slice(start, i + 1));
                    if (value !== null && typeof value === "object" && !Array.isArray(value)) return value;
                } catch {
                    // Not JSON: try the next "{".
                }
                break;
            }
        }
    }
    return null;
}

/** The same JSON value: same keys, same values, same types. */
function sameJson(a, b) {
    if (a === b) return true;
    if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (Array.isArray(a)) return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
    const keys = Object.keys(a);
    return (
        keys.length === Object.keys(b).length &&
        keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]))
    );
}

/** Strict scoring: some gold answer has the same action, tool (if it names one) and arguments (if it has them). */
function isCorrect(parsed, gold) {
    if (parsed === null) return false;
    return gold.some(
        (answer) =>
            parsed.action === answer.action &&
            (answer.tool === undefined || parsed.tool === answer.tool) &&
            (answer.arguments === undefined || sameJson(parsed.arguments, answer.arguments)),
    );
}

function packageVersion() {
    try {
        return readJson(path.join(here, "node_modules", "node-llama-cpp", "package.json")).version;
    } catch {
        return null;
    }
}

// The runs: scenario by scenario, each rendering, each sample. A rendering
// that is null (the peer would not fail) is not run.
const runs = [];
for (const scenario of chosen) {
    for (const rendering of renderings) {
        const text = renderingsById.get(scenario.id)[rendering];
        if (text === null || text === undefined) continue;
        for (let sample = 0; sample < samples; sample++) runs.push({ scenario, rendering, text, sample });
    }
}

const started = new Date();
const t0 = performance.now();
const llama = await getLlama({
    gpu: false,
    build: "never",
    skipDownload: true,
    usePrebuiltBinaries: true,
    maxThreads: 1,
    logLevel: LlamaLogLevel.warn,
});
const model = await llama.loadModel({ modelPath: path.resolve(options.model), gpuLayers: 0 });
const context = await model.createContext({ contextSize, threads: 1, sequences: 1 });
const sequence = context.getSequence();
const session = new LlamaChatSession({ contextSequence: sequence, systemPrompt: SYSTEM_PROMPT, autoDisposeSequence: false });
const loadSeconds = (performance.now() - t0) / 1000;

/** The tokens the model reads for a run, up to its answer. */
function promptTokens(run) {
    const chatHistory = [
        ...history(run.scenario),
        { type: "user", text: resultTurn(run.scenario, run.text) },
        { type: "model", response: [] },
    ];
    const { contextText } = session.chatWrapper.generateContextState({ chatHistory });
    return contextText.tokenize(model.tokenizer);
}

// The prefix every run shares (the system prompt and the chat template's
// start of the user turn) is evaluated once, before the first run; after each
// run the sequence is cut back to it. So every run evaluates the same prefix
// state plus its own tokens, whatever ran before it: a run's answer does not
// depend on the order of the runs nor on --only and --scenarios. (The
// prefix is what two different tasks share, not what the chosen runs share,
// which for one scenario would reach into its task.)
const runTokens = runs.map(promptTokens);
const probe = (task) =>
    promptTokens({ scenario: { task, call: { tool: "none", arguments: {} } }, text: "" });
const probeTokens = probe("A.");
const common = (a, b) => {
    let i = 0;
    while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
    return i;
};
const prefixLength = options.fresh
    ? 0
    : Math.min(common(probeTokens, probe("B.")), ...runTokens.map((tokens) => common(probeTokens, tokens)));
const prefixStart = performance.now();
if (prefixLength > 0) await sequence.evaluateWithoutGeneratingNewTokens(probeTokens.slice(0, prefixLength));
const prefixSeconds = (performance.now() - prefixStart) / 1000;

const document = {
    model: path.basename(options.model),
    model_path: path.resolve(options.model),
    renderings_file: path.resolve(options.renderings),
    commit: renderingsDocument.commit ?? null,
    renderings,
    node_llama_cpp: packageVersion(),
    chat_wrapper: session.chatWrapper.wrapperName,
    context_size: context.contextSize,
    threads: 1,
    temperature,
    samples,
    seed,
    max_tokens: maxTokens,
    system_prompt: SYSTEM_PROMPT,
    prefix_tokens: prefixLength,
    prefix_seconds: round(prefixSeconds),
    started_at: started.toISOString(),
    load_seconds: round(loadSeconds),
    total_seconds: null,
    rows: [],
};

function round(value) {
    return Math.round(value * 1000) / 1000;
}

function save() {
    if (options.out) fs.writeFileSync(options.out, JSON.stringify(document, null, 2) + "\n");
}

console.error(
    `${document.model}: ${runs.length} runs, ${chosen.length} scenarios x ${renderings.length} renderings x ${samples} samples; ` +
        `shared prefix ${prefixLength} tokens (evaluated in ${prefixSeconds.toFixed(1)} s); model loaded in ${loadSeconds.toFixed(1)} s`,
);

// Two renderings of one scenario with the same text (the host's
// `model_text` equals the server's MCP text on a first attempt) make the
// same prompt: the second is not run again, its row copies the answer.
const answered = new Map();

for (const [index, run] of runs.entries()) {
    const { scenario, rendering, text, sample } = run;
    const renderingTokens = model.tokenize(text).length;
    const sameAs = answered.get(`${scenario.id}\u0000${sample}\u0000${text}`);
    if (sameAs !== undefined) {
        document.rows.push({ ...sameAs, rendering, same_text_as: sameAs.rendering, seconds: 0 });
        save();
        console.error(`[${index + 1}/${runs.length}] ${scenario.id} x ${rendering}: the text of ${sameAs.rendering}, not run again`);
        continue;
    }
    session.setChatHistory(history(scenario));
    const meterBefore = sequence.tokenMeter.getState();
    const reused = sequence.nextTokenIndex;
    const start = performance.now();
    const { responseText } = await session.promptWithMeta(resultTurn(scenario, text), {
        temperature,
        seed: temperature > 0 ? seed + sample : undefined,
        maxTokens,
        repeatPenalty: false,
    });
    const seconds = (performance.now() - start) / 1000;
    const used = sequence.tokenMeter.diff(meterBefore);
    // Back to the shared prefix for the next run.
    await sequence.eraseContextTokenRanges([{ start: prefixLength, end: sequence.nextTokenIndex }]);

    const parsed = firstJsonObject(responseText);
    const correct = isCorrect(parsed, scenario.gold);
    const row = {
        scenario: scenario.id,
        class: scenario.class,
        rendering,
        sample,
        raw: responseText,
        parsed,
        correct,
        seconds: round(seconds),
        prompt_tokens: runTokens[index].length,
        rendering_tokens: renderingTokens,
        reused_tokens: reused,
        evaluated_tokens: used.usedInputTokens,
        generated_tokens: used.usedOutputTokens,
    };
    document.rows.push(row);
    answered.set(`${scenario.id}\u0000${sample}\u0000${text}`, row);
    save();
    console.error(
        `[${index + 1}/${runs.length}] ${scenario.id} x ${rendering}${samples > 1 ? ` #${sample}` : ""}: ` +
            `${correct ? "ok" : "WRONG"} (${seconds.toFixed(1)} s, ${runTokens[index].length} prompt tokens, ` +
            `${used.usedInputTokens} evaluated) ${JSON.stringify(responseText).slice(0, 160)}`,
    );
}
document.total_seconds = round((performance.now() - t0) / 1000);
save();

// The tables: per rendering, then per scenario.
const rows = document.rows;
const tally = (filter) => {
    const picked = rows.filter(filter);
    return { correct: picked.filter((row) => row.correct).length, total: picked.length };
};
const percent = ({ correct, total }) => (total === 0 ? "-" : `${((100 * correct) / total).toFixed(1)}%`);

console.log(`\n${document.model} (renderings of ${document.commit ?? "an unknown commit"}; temperature ${temperature}, ${samples} sample(s))\n`);
const width = Math.max(...renderings.map((name) => name.length), 9);
console.log(`${"rendering".padEnd(width)}  correct  percent`);
for (const rendering of renderings) {
    const counts = tally((row) => row.rendering === rendering);
    console.log(`${rendering.padEnd(width)}  ${`${counts.correct}/${counts.total}`.padStart(7)}  ${percent(counts).padStart(7)}`);
}
const all = tally(() => true);
console.log(`${"all".padEnd(width)}  ${`${all.correct}/${all.total}`.padStart(7)}  ${percent(all).padStart(7)}`);

const idWidth = Math.max(...chosen.map((scenario) => scenario.id.length), 8);
const cellWidth = Math.max(...renderings.map((name) => name.length), 5);
console.log(`\n${"scenario".padEnd(idWidth)}  ${renderings.map((name) => name.padEnd(cellWidth)).join(" ")}`);
for (const scenario of chosen) {
    const cells = renderings.map((rendering) => {
        const counts = tally((row) => row.scenario === scenario.id && row.rendering === rendering);
        const cell =
            counts.total === 0 ? "-" : samples === 1 ? (counts.correct === 1 ? "✓" : "✗") : `${counts.correct}/${counts.total}`;
        return cell.padEnd(cellWidth);
    });
    console.log(`${scenario.id.padEnd(idWidth)}  ${cells.join(" ")}`);
}
const timed = rows.map((row) => row.seconds);
if (timed.length > 0) {
    const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
    console.log(
        `\n${rows.length} runs in ${document.total_seconds.toFixed(0)} s (model load ${document.load_seconds.toFixed(1)} s, ` +
            `shared prefix ${document.prefix_seconds.toFixed(1)} s); ` +
            `per run: ${mean(timed).toFixed(2)} s, ${mean(rows.map((row) => row.prompt_tokens)).toFixed(0)} prompt tokens ` +
            `of which ${prefixLength} shared, ${mean(rows.map((row) => row.evaluated_tokens)).toFixed(0)} evaluated, ` +
            `${mean(rows.map((row) => row.generated_tokens)).toFixed(0)} generated`,
    );
}

await context.dispose();
await model.dispose();
await llama.dispose();
