// electron-builder's beforeBuild hook. Returning false tells it the app's node_modules are taken care
// of elsewhere, so it neither installs, rebuilds nor copies them: scripts/build.mjs bundles every
// runtime dependency into out/, and package.json lists them as `dependencies` only so that scanners
// see what ships. Without this, electron-builder would copy them into app.asar a second time.
module.exports = async function beforeBuild() {
  return false;
};
