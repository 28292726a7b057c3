import { freePorts } from '../../src/dev/ports';

test('ports asked for together are all different (the crash campaign once got one port twice)', async () => {
  for (let round = 0; round < 20; round++) {
    const ports = await freePorts(6);
    expect(new Set(ports).size).toBe(6);
    for (const port of ports) expect(port).toBeGreaterThan(0);
  }
});
