// @ts-check
// The node a collector key names, or null when it is gone (page/listeners.py: the chain that lists
// the listeners of the elements a walk met fresh starts from it).
function(key) {
  return globalThis.__browserx?.nodeOf(key) ?? null;
}
