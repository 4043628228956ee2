// A Node preload (`node --import test/helpers/network-guard.mjs …`) that makes the offline guarantee
// testable: every way a Node program opens a connection to another machine is refused and counted.
// Loopback stays open because the web host and its tests talk over 127.0.0.1.
//
// At exit the process appends one JSON line {pid, attempts, refused[]} to the file named by
// CG_NET_GUARD_REPORT, so a parent can sum the attempts of a process and any Node children it
// started with the same preload (through NODE_OPTIONS). Reading the environment is fine here: this
// is a test preload, never part of the engine.
//
// What it cannot see: native code opening sockets itself (llama.cpp, onnxruntime). The probe covers
// that by also running inside a network namespace with no interfaces but loopback (unshare -rn).

import dgram from "node:dgram";
import dns from "node:dns";
import { appendFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import net from "node:net";
import { syncBuiltinESMExports } from "node:module";
import tls from "node:tls";

const REPORT = process.env.CG_NET_GUARD_REPORT;
const refused = [];
let attempts = 0;

const LOOPBACK_NAMES = new Set(["localhost", "localhost.", "ip6-localhost", "ip6-loopback"]);

/** Loopback or "this host": 127/8, ::1, IPv4-mapped loopback, localhost, and the unspecified address. */
export function isLoopbackHost(host) {
  if (host === undefined || host === null || host === "") return true; // Node's default is localhost
  let name = String(host).toLowerCase();
  if (name.startsWith("[") && name.endsWith("]")) name = name.slice(1, -1);
  if (LOOPBACK_NAMES.has(name)) return true;
  const zone = name.indexOf("%");
  if (zone >= 0) name = name.slice(0, zone);
  const family = isIP(name);
  if (family === 4) return name.startsWith("127.") || name === "0.0.0.0";
  if (family === 6) {
    if (name === "::1" || name === "::" || name === "0:0:0:0:0:0:0:1") return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(name);
    return mapped !== null && mapped[1].startsWith("127.");
  }
  return false;
}

function guardError(what) {
  const err = new Error(`network-guard: refused ${what} (the engine must stay offline)`);
  err.code = "ERR_NETWORK_GUARD";
  return err;
}

function refuse(kind, destination) {
  attempts += 1;
  const what = `${kind} ${destination}`;
  if (refused.length < 50) refused.push(what);
  return guardError(what);
}

// ---- TCP (and everything built on it: http, https, tls, undici's fetch, ws) ----

/** The destination of a Socket#connect call, whatever shape its arguments take. */
function socketTarget(args) {
  let first = args[0];
  // net.connect() hands Socket#connect an already normalized [options, cb] array.
  if (Array.isArray(first)) first = first[0];
  if (first !== null && typeof first === "object") {
    if (typeof first.path === "string") return { local: true, label: first.path };
    return { local: isLoopbackHost(first.host), label: `${first.host ?? "localhost"}:${first.port}` };
  }
  if (typeof first === "string" && !/^\d+$/.test(first)) return { local: true, label: first }; // a unix socket path
  const host = typeof args[1] === "string" ? args[1] : undefined;
  return { local: isLoopbackHost(host), label: `${host ?? "localhost"}:${String(first)}` };
}

const originalSocketConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  const target = socketTarget(args);
  if (target.local) return originalSocketConnect.apply(this, args);
  const err = refuse("tcp", target.label);
  process.nextTick(() => this.destroy(err));
  return this;
};

const originalTlsConnect = tls.connect;
tls.connect = function guardedTlsConnect(...args) {
  const first = args[0];
  const options = first !== null && typeof first === "object" ? first : { port: first, host: typeof args[1] === "string" ? args[1] : undefined };
  // An existing socket was already checked when it connected.
  if (options.socket !== undefined || isLoopbackHost(options.host)) return originalTlsConnect.apply(this, args);
  const err = refuse("tls", `${options.host}:${options.port}`);
  const socket = new tls.TLSSocket(new net.Socket());
  process.nextTick(() => socket.destroy(err));
  return socket;
};

// ---- HTTP(S) requests: refused before a socket exists, so the error names the URL ----

function requestTarget(args) {
  const first = args[0];
  if (typeof first === "string" || first instanceof URL) {
    const url = new URL(String(first));
    return { host: url.hostname, label: url.href };
  }
  if (first !== null && typeof first === "object") {
    const host = first.hostname ?? first.host;
    return { host: typeof host === "string" ? host.replace(/:\d+$/, "") : undefined, label: `${host ?? "localhost"}${first.path ?? "/"}` };
  }
  return { host: undefined, label: "localhost" };
}

function guardRequest(module, name, scheme) {
  const original = module[name];
  module[name] = function guardedRequest(...args) {
    const target = requestTarget(args);
    if (isLoopbackHost(target.host)) return original.apply(this, args);
    throw refuse(scheme, target.label);
  };
}
guardRequest(http, "request", "http");
guardRequest(http, "get", "http");
guardRequest(https, "request", "https");
guardRequest(https, "get", "https");

// ---- fetch (undici keeps its own reference to net.connect, so guard the front door too) ----

if (typeof globalThis.fetch === "function") {
  const originalFetch = globalThis.fetch;
  globalThis.fetch = async function guardedFetch(input, init) {
    const href = typeof input === "string" || input instanceof URL ? String(input) : input.url;
    const url = new URL(href);
    const local = url.protocol === "data:" || url.protocol === "blob:" || url.protocol === "file:" || isLoopbackHost(url.hostname);
    if (!local) throw refuse("fetch", url.href);
    return originalFetch.call(this, input, init);
  };
}

// ---- UDP ----

const originalSend = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function guardedSend(...args) {
  // send(msg[, offset, length][, port][, address][, callback]): the address is the one string after msg.
  const rest = args.slice(1).filter((arg) => typeof arg !== "function");
  const address = rest.find((arg) => typeof arg === "string");
  const port = rest.filter((arg) => typeof arg === "number").at(-1);
  if (isLoopbackHost(address)) return originalSend.apply(this, args);
  const err = refuse("udp", `${address}:${port}`);
  const callback = args.findLast((arg) => typeof arg === "function");
  process.nextTick(() => (callback ? callback(err) : this.emit("error", err)));
  return undefined;
};

const originalUdpConnect = dgram.Socket.prototype.connect;
dgram.Socket.prototype.connect = function guardedUdpConnect(port, address, callback) {
  const host = typeof address === "string" ? address : undefined;
  if (isLoopbackHost(host)) return originalUdpConnect.call(this, port, address, callback);
  const err = refuse("udp-connect", `${host}:${port}`);
  process.nextTick(() => this.emit("error", err));
  return undefined;
};

// ---- DNS: resolving a remote name is already a packet on the wire ----

function dnsError(err, hostname) {
  err.hostname = hostname;
  return err;
}

const originalLookup = dns.lookup;
dns.lookup = function guardedLookup(hostname, options, callback) {
  if (isLoopbackHost(hostname)) return originalLookup.call(this, hostname, options, callback);
  const cb = typeof options === "function" ? options : callback;
  const err = dnsError(refuse("dns-lookup", hostname), hostname);
  process.nextTick(() => cb(err));
  return {};
};

const originalPromisesLookup = dns.promises.lookup;
dns.promises.lookup = async function guardedPromisesLookup(hostname, options) {
  if (isLoopbackHost(hostname)) return originalPromisesLookup.call(this, hostname, options);
  throw dnsError(refuse("dns-lookup", hostname), hostname);
};

// resolve* always asks the configured name server, even for "localhost": every call is an attempt.
const RESOLVE_METHODS = [
  "resolve",
  "resolve4",
  "resolve6",
  "resolveAny",
  "resolveCaa",
  "resolveCname",
  "resolveMx",
  "resolveNaptr",
  "resolveNs",
  "resolvePtr",
  "resolveSoa",
  "resolveSrv",
  "resolveTxt",
  "reverse",
  "lookupService",
];

function guardCallbackResolver(target) {
  for (const name of RESOLVE_METHODS) {
    if (typeof target[name] !== "function") continue;
    target[name] = function guardedResolve(...args) {
      const err = dnsError(refuse(`dns-${name}`, String(args[0])), String(args[0]));
      const cb = args.findLast((arg) => typeof arg === "function");
      if (cb) process.nextTick(() => cb(err));
      else throw err;
      return undefined;
    };
  }
}

function guardPromiseResolver(target) {
  for (const name of RESOLVE_METHODS) {
    if (typeof target[name] !== "function") continue;
    target[name] = async function guardedResolve(...args) {
      throw dnsError(refuse(`dns-${name}`, String(args[0])), String(args[0]));
    };
  }
}

guardCallbackResolver(dns);
guardCallbackResolver(dns.Resolver.prototype);
guardPromiseResolver(dns.promises);
guardPromiseResolver(dns.promises.Resolver.prototype);

// `import { request } from "node:http"` reads the ES module facade: bring it in line with the patches.
syncBuiltinESMExports();

process.on("exit", () => {
  if (!REPORT) return;
  try {
    appendFileSync(REPORT, `${JSON.stringify({ pid: process.pid, attempts, refused })}\n`);
  } catch {
    // The parent reports a missing line as a failed probe.
  }
});
