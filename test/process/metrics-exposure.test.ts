import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, loadConfig, loadServerConfig } from '../../src/config.js';
import { runServerToExit } from '../helpers/servers.js';

// /metrics answers whoever reaches the server: beyond loopback METRICS_TOKEN is required, and a
// server without one refuses to start (a configuration error, exit 78, naming the variable).

describe('METRICS_TOKEN beyond loopback', () => {
  it('tells loopback hosts from the others', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.5', '192.168.1.20', 'api.example.com', '128.0.0.1', '::ffff:10.0.0.1'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('refuses a server listening beyond loopback without METRICS_TOKEN, naming the variable', () => {
    for (const HOST of ['0.0.0.0', '::', '10.0.0.5']) {
      expect(() => loadServerConfig({ HOST }), HOST).toThrow(ConfigError);
      expect(() => loadServerConfig({ HOST }), HOST).toThrow(/^METRICS_TOKEN must be set when HOST=/);
    }
    expect(loadServerConfig({ HOST: '0.0.0.0', METRICS_TOKEN: 'a-long-random-secret' })).toMatchObject({
      host: '0.0.0.0',
      metricsToken: 'a-long-random-secret',
    });
    expect(loadServerConfig({}).host).toBe('127.0.0.1');
    expect(loadServerConfig({ HOST: '::1' }).metricsToken).toBeUndefined();
    // The CLI reads the same variables and never listens: it is not held to this.
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('stops the server at start with exit code 78 and one line naming METRICS_TOKEN', async () => {
    const { code, output } = await runServerToExit({ HOST: '0.0.0.0', DATABASE_URL: 'sqlite::memory:' });
    expect(code).toBe(78);
    expect(output.trim().split('\n')).toEqual([
      expect.stringMatching(/^Configuration error: METRICS_TOKEN must be set when HOST=0\.0\.0\.0 /),
    ]);
  });
});
