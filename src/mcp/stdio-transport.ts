import process from 'node:process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** One JSON-RPC message per line; a line longer than this is answered with an error and skipped. */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

/**
 * stdio transport that answers every line: the SDK's own transport drops a malformed line
 * without a reply (the client waits forever) and closes on an oversized one. Here a line that is
 * not JSON gets -32700, a JSON value that is not a JSON-RPC message gets -32600 (with its id when
 * it has one), an oversized line gets -32600 and is skipped; problems are logged to stderr.
 */
export class LineStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  private chunks: Buffer[] = [];
  private size = 0;
  private skipping = false;
  private started = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer) => {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.take(chunk.subarray(start, nl));
      this.endLine();
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  };

  private readonly onStdinError = (error: Error) => this.onerror?.(error);

  private take(part: Buffer): void {
    if (this.skipping || !part.length) return;
    this.size += part.length;
    if (this.size > this.maxBytes) {
      this.chunks = [];
      this.size = 0;
      this.skipping = true;
      return;
    }
    this.chunks.push(part);
  }

  private endLine(): void {
    if (this.skipping) {
      this.skipping = false;
      this.log(`消息过大（超过 ${Math.round(this.maxBytes / 1048576)} MB），已丢弃`);
      this.reply(null, INVALID_REQUEST, `Invalid Request: message larger than ${this.maxBytes} bytes / 消息过大`);
      return;
    }
    const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
    this.chunks = [];
    this.size = 0;
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      this.log('收到无法解析的 JSON 行，已回复 -32700');
      this.reply(null, PARSE_ERROR, 'Parse error / 不是有效的 JSON');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      this.log('收到不是 JSON-RPC 2.0 的消息，已回复 -32600');
      this.reply(typeof id === 'string' || typeof id === 'number' ? id : null, INVALID_REQUEST, 'Invalid Request / 不是有效的 JSON-RPC 2.0 消息');
      return;
    }
    try {
      this.onmessage?.(parsed.data);
    } catch (e) {
      this.onerror?.(e as Error);
    }
  }

  private reply(id: string | number | null, code: number, message: string): void {
    this.stdout.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }) + '\n');
  }

  private log(message: string): void {
    process.stderr.write(`[gridcode mcp] ${message}\n`);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('transport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStdinError);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStdinError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.chunks = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(JSON.stringify(message) + '\n')) resolve();
      else this.stdout.once('drain', () => resolve());
    });
  }
}
