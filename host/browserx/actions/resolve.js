// actions/resolve.py, in browserx's isolated world of the element's frame, with a collector key:
// the element (__browserx.nodeOf), or null when it is gone or no longer of this page
// (__browserx.ours); 'no-ai' when its document (a frame's included) opted out of AI agents: nothing
// of it is touched. Kept compact: it runs before every action.
function(key){const B=globalThis.__browserx;
const el=B&&B.nodeOf(key);if(!el||!el.isConnected||!B.ours(el))return null;
const d=el.ownerDocument;if(d.documentElement.hasAttribute('data-no-ai')||
d.body&&d.body.hasAttribute('data-no-ai'))return 'no-ai';return el}
