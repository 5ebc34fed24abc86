#!/usr/bin/env node
// A minimal ModelArts training-job client in JavaScript (Node 18+, no dependencies): the kind of
// hand-written client the contract kit checks through an adapter (see adapter.py next to it).
//
//   MODELARTS_BASE_URL=http://127.0.0.1:8000 MODELARTS_TOKEN=... node client.mjs create PROJECT '{"kind": "job", ...}'
//   node client.mjs show PROJECT JOB_ID
//   node client.mjs stop PROJECT JOB_ID
//
// It prints one JSON line: {"result": <the parsed response body>} or
// {"error": {"status": N, "error_code": "...", "error_msg": "..."}}; exit code 0 either way,
// 3 when no HTTP answer came at all.

const RETRIED = new Set([429, 500, 502, 503, 504]);
const [command, projectId, third] = process.argv.slice(2);
const base = (process.env.MODELARTS_BASE_URL || "").replace(/\/$/, "");
const token = process.env.MODELARTS_TOKEN || "";

async function call(method, path, body, retries) {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(base + path, {
      method,
      headers: body === undefined
        ? { "X-Auth-Token": token }
        : { "X-Auth-Token": token, "Content-Type": "application/json" },
      // A string is a JSON text sent as it is (see create below).
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.ok) return { result: text ? JSON.parse(text) : null };
    if (attempt < retries && RETRIED.has(response.status)) {
      const wait = Number(response.headers.get("retry-after") || "1");
      await new Promise((done) => setTimeout(done, Math.min(wait, 5) * 1000));
      continue;
    }
    let parsed = {};
    try { parsed = JSON.parse(text); } catch { /* not JSON: no code, no message */ }
    return {
      error: {
        status: response.status,
        error_code: parsed.error_code ?? null,
        error_msg: parsed.error_msg ?? null,
      },
    };
  }
}

const jobs = `/v2/${encodeURIComponent(projectId)}/training-jobs`;
let outcome;
try {
  if (command === "create") {
    // Sent as the caller wrote it: JSON.parse then JSON.stringify would turn an int64 such as
    // -9223372036854775808 into a double (-9223372036854776000). Parsed only to refuse a body
    // that is not JSON before anything is sent. A create is never retried.
    JSON.parse(third);
    outcome = await call("POST", jobs, third, 0);
  } else if (command === "show") {
    outcome = await call("GET", `${jobs}/${encodeURIComponent(third)}`, undefined, 3);
  } else if (command === "stop") {
    const path = `${jobs}/${encodeURIComponent(third)}/actions`;
    outcome = await call("POST", path, { action_type: "terminate" }, 0);
  } else {
    console.error(`usage: client.mjs create|show|stop PROJECT_ID BODY|JOB_ID (got ${command})`);
    process.exit(2);
  }
} catch (problem) {
  console.error(`no answer: ${problem}`);
  process.exit(3);
}
process.stdout.write(JSON.stringify(outcome) + "\n");
