/**
 * Loads dist/maitred.cjs with V8's code cache, so a start deserialises compiled code instead of
 * compiling 2 MB of JavaScript (about 170 ms of a 560 ms start on the reference machine; measured with
 * `npm run bench:startup`, decisions.md "Compiled runtime").
 *
 * Node 22.1+ has this built in (module.enableCompileCache) and it is used there. Node 20 has no
 * built-in cache; v8-compile-cache, the package that filled the gap, writes its cache before the code
 * runs (so it holds little more than the top level) and keeps it in a shared temporary directory; hence
 * this small loader. It compiles the file as Node's CommonJS loader would (same wrapper, same require),
 * with the cache kept beside it in dist/ (a rebuild replaces dist/ and with it the cache).
 * Code compiled this way has no import() on Node 20 (vm's main-context loader is experimental and is
 * lost when the code comes from the cache), so the build refuses import() of an external package; the
 * bundle's own import()s of src/ modules are compiled into plain function calls. V8 rejects a cache made by another V8 version, other flags or other source, and the file
 * is then compiled as usual and the cache rewritten. The cache is written once the command has run
 * (for `serve`: once it listens), so it holds the functions a start compiles, not only the top level;
 * the server and the other commands compile different functions, so each `cacheName` has its own file.
 * A cache that cannot be written (read-only deployment) only costs the saving.
 */
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** Loads the CommonJS file and returns its exports, plus a function that writes its code cache if due. */
export function loadCompiled(file, cacheName) {
  const require = createRequire(file);
  if (typeof Module.enableCompileCache === 'function') {
    Module.enableCompileCache();
    return { exports: require(file), saveCache: () => undefined };
  }
  const cacheFile = `${file}.${cacheName}.v8-cache`;
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), {
    filename: file,
    cachedData,
  });
  const module = new Module(file, null);
  module.filename = file;
  module.paths = Module._nodeModulePaths(path.dirname(file));
  module.loaded = true;
  script.runInThisContext()(module.exports, require, module, file, path.dirname(file));
  const due = cachedData === undefined || script.cachedDataRejected === true;
  return {
    exports: module.exports,
    saveCache() {
      if (!due) return;
      const temporary = `${cacheFile}.${process.pid}`;
      try {
        fs.writeFileSync(temporary, script.createCachedData());
        fs.renameSync(temporary, cacheFile);
      } catch {
        fs.rmSync(temporary, { force: true });
      }
    },
  };
}
