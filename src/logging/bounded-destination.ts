import { fstatSync } from 'node:fs';
import { Socket } from 'node:net';
import sonicBoom from 'sonic-boom';

// A CommonJS module: its class is a property of the default export at run time.
const { SonicBoom } = sonicBoom;

// The JSON log goes to stdout, which operators pipe to a shipper. A shipper that stalls must not
// stall the service: writes are buffered up to `maxBufferedBytes`, lines past that are dropped
// and counted, and nothing ever waits for stdout without a bound — not a request, not shutdown.
//
// A pipe or socket (what a shipper or a container runtime gives) is written through a
// non-blocking libuv handle: the kernel buffer fills, the rest waits in this process up to the
// bound. (Node's own stdout on a pipe is blocking, and a blocked write in the thread pool keeps
// the process from exiting.) A file or terminal is written by sonic-boom, pino's own writer, with
// the same bound.

export interface LogDestination {
  write(line: string): boolean;
  /** Lines dropped since start because the buffer was full. */
  readonly droppedLines: number;
  /** Waits at most `timeoutMs` for buffered lines to be written; never longer. */
  flush(timeoutMs: number): Promise<void>;
}

export interface BoundedDestinationOptions {
  fd?: number;
  maxBufferedBytes: number;
  /** Told once writing resumes after drops (the server writes one line to stderr). */
  onResumeAfterDrops?: (dropped: number) => void;
}

function isPipeOrSocket(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    return stat.isFIFO() || stat.isSocket();
  } catch {
    return false;
  }
}

class SocketDestination implements LogDestination {
  droppedLines = 0;
  private droppedSinceReport = 0;
  private readonly socket: Socket;

  constructor(
    fd: number,
    private readonly options: BoundedDestinationOptions,
  ) {
    this.socket = new Socket({ fd, readable: false, writable: true });
    // A closed reader (EPIPE) ends logging; it must never end the process.
    this.socket.on('error', () => {});
    // The log must not keep the process alive by itself.
    this.socket.unref();
  }

  write(line: string): boolean {
    if (this.socket.destroyed) return false;
    if (this.socket.writableLength + line.length > this.options.maxBufferedBytes) {
      this.droppedLines += 1;
      this.droppedSinceReport += 1;
      return false;
    }
    // The first line taken after drops reports them once it has actually left the process.
    // ('drain' would not do: with Node's 64 KiB high-water mark a small buffer never asks for it.)
    if (this.droppedSinceReport > 0) this.socket.write(line, () => this.reportResumed());
    else this.socket.write(line);
    return true;
  }

  private reportResumed(): void {
    if (this.droppedSinceReport === 0) return;
    const dropped = this.droppedSinceReport;
    this.droppedSinceReport = 0;
    this.options.onResumeAfterDrops?.(dropped);
  }

  flush(timeoutMs: number): Promise<void> {
    if (this.socket.writableLength === 0 || this.socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      // An empty write's callback runs once everything written before it has left.
      this.socket.write('', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

class SonicDestination implements LogDestination {
  droppedLines = 0;
  private droppedSinceReport = 0;
  private readonly stream: InstanceType<typeof SonicBoom>;

  constructor(fd: number, options: BoundedDestinationOptions) {
    this.stream = new SonicBoom({ fd, sync: false, maxLength: options.maxBufferedBytes });
    this.stream.on('error', () => {});
    this.stream.on('drop', () => {
      this.droppedLines += 1;
      this.droppedSinceReport += 1;
    });
    this.stream.on('write', () => {
      if (this.droppedSinceReport === 0) return;
      const dropped = this.droppedSinceReport;
      this.droppedSinceReport = 0;
      options.onResumeAfterDrops?.(dropped);
    });
  }

  write(line: string): boolean {
    return this.stream.write(line);
  }

  flush(timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      try {
        this.stream.flush(() => {
          clearTimeout(timer);
          resolve();
        });
      } catch {
        clearTimeout(timer);
        resolve();
      }
    });
  }
}

/** stdout (or `fd`) as a bounded, never-blocking log destination. */
export function boundedDestination(options: BoundedDestinationOptions): LogDestination {
  const fd = options.fd ?? 1;
  return isPipeOrSocket(fd) ? new SocketDestination(fd, options) : new SonicDestination(fd, options);
}
