import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_SETTINGS, RESTRICTED_SETTING_KEYS, SETTING_KEYS } from '../../src/host/config';
import { HOST_UI_COMMANDS } from '../../src/host/commands/keys';
import { COMMANDS, CONTEXT_KEYS, PANEL_VIEW_ID, VIEW_CONTAINER_ID } from '../../src/host/ids';

interface Manifest {
  activationEvents: unknown[];
  icon: string;
  capabilities: { untrustedWorkspaces: { supported: string; restrictedConfigurations: string[] } };
  contributes: {
    commands: { command: string; title: string; category: string; icon: string }[];
    viewsContainers: { activitybar: { id: string; icon: string }[] };
    views: Record<string, { id: string; type: string }[]>;
    menus: Record<string, { command: string; when?: string }[]>;
    keybindings: { command: string; when?: string }[];
    configuration: { properties: Record<string, { default: unknown; markdownDescription?: string }> };
  };
}

const repo = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(resolve(repo, 'package.json'), 'utf8')) as Manifest;
const c = pkg.contributes;

function valueAt(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], obj);
}

describe('package.json contributions', () => {
  it('activates on use only', () => {
    assert.deepEqual(pkg.activationEvents, []);
  });

  it('contributes exactly the commands the host registers, each with the category and a codicon', () => {
    assert.deepEqual(c.commands.map((x) => x.command).sort(), Object.values(COMMANDS).sort());
    for (const cmd of c.commands) {
      assert.equal(cmd.category, 'Planwise', cmd.command);
      assert.match(cmd.icon, /^\$\([a-z0-9-]+\)$/, cmd.command);
      assert.ok(cmd.title.length > 0);
    }
  });

  it('puts the webview view into an activity-bar container with an icon that ships', () => {
    const container = c.viewsContainers.activitybar.find((v) => v.id === VIEW_CONTAINER_ID);
    assert.ok(container);
    assert.ok(readFileSync(resolve(repo, container.icon)).length > 0);
    assert.deepEqual(c.views[VIEW_CONTAINER_ID], [
      { type: 'webview', id: PANEL_VIEW_ID, name: 'Planning', icon: container.icon, contextualTitle: 'Planwise' },
    ]);
    assert.equal(readFileSync(resolve(repo, pkg.icon)).subarray(1, 4).toString(), 'PNG');
  });

  it('uses only known context keys in when-clauses', () => {
    const known = new Set(Object.values(CONTEXT_KEYS));
    const clauses = [...Object.values(c.menus).flat(), ...c.keybindings].map((m) => m.when ?? '');
    for (const when of clauses) {
      for (const key of when.match(/planwise\.[A-Za-z]+/g) ?? []) {
        assert.ok(known.has(key as never) || key === PANEL_VIEW_ID, `${key} in "${when}"`);
      }
    }
    const stateValues = clauses.flatMap((w) => [...w.matchAll(/planwise\.state == (\w+)/g)].map((m) => m[1]));
    for (const v of stateValues) assert.ok(['idle', 'planning', 'awaitingApproval', 'executing'].includes(v!), v);
  });

  it('hides gate commands from the palette unless a plan awaits approval', () => {
    const palette = new Map(c.menus.commandPalette!.map((m) => [m.command, m.when]));
    for (const id of [COMMANDS.approvePlan, COMMANDS.approveFreshContext, COMMANDS.stayInPlanning]) {
      assert.equal(palette.get(id), 'planwise.state == awaitingApproval');
    }
    assert.equal(palette.get(COMMANDS.runVerify), 'false', 'the lens command is not for the palette');
    assert.match(palette.get(COMMANDS.runAllVerify) ?? '', /isWorkspaceTrusted/);
  });

  // Registered with the host instead of at activation: nothing a window shows before the host
  // loads may call them.
  it("keeps the commands registered with the host out of reach until the host's own UI shows them", () => {
    const palette = new Map(c.menus.commandPalette!.map((m) => [m.command, m.when]));
    for (const key of HOST_UI_COMMANDS) {
      const id = COMMANDS[key];
      assert.equal(palette.get(id), 'false', `${id} is in the palette`);
      assert.ok(!c.keybindings.some((k) => k.command === id), `${id} has a keybinding`);
      for (const [menu, items] of Object.entries(c.menus)) {
        if (menu === 'commandPalette') continue;
        for (const item of items.filter((m) => m.command === id)) {
          assert.match(menu, /^comments\//, `${id} is in the ${menu} menu`);
          assert.match(item.when ?? '', /^commentController == planwise-review\b/, `${id} in ${menu}: ${item.when}`);
        }
      }
    }
    // Every other command is registered at activation: the palette, menus and keybindings may call it.
    // src/extension.ts tells the two apart by this very rule (`when: false` in the palette).
    const hidden = c.menus.commandPalette!.filter((m) => m.when === 'false').map((m) => m.command);
    assert.deepEqual(hidden.sort(), HOST_UI_COMMANDS.map((k) => COMMANDS[k]).sort());
  });

  it('describes every setting in markdown, with the default the host uses', () => {
    const props = c.configuration.properties;
    assert.deepEqual(Object.keys(props).sort(), SETTING_KEYS.map((k) => `planwise.${k}`).sort());
    for (const key of SETTING_KEYS) {
      const prop = props[`planwise.${key}`]!;
      assert.ok((prop.markdownDescription ?? '').length > 20, key);
      assert.deepEqual(prop.default, valueAt(DEFAULT_SETTINGS, key), key);
    }
  });

  it('supports untrusted workspaces in a limited way and restricts the dangerous settings', () => {
    const u = pkg.capabilities.untrustedWorkspaces;
    assert.equal(u.supported, 'limited');
    assert.deepEqual(
      [...u.restrictedConfigurations].sort(),
      RESTRICTED_SETTING_KEYS.map((k) => `planwise.${k}`).sort(),
    );
  });
});
