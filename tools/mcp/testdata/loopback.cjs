// Preloaded (node --require) into the everything server's HTTP transport,
// which listens on all interfaces: binds a listener given only a port to
// 127.0.0.1, so the tests talk to loopback only.
const net = require("node:net");
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (args.length > 0 && /^\d+$/.test(String(args[0])) && typeof args[1] !== "string") {
    const cb = typeof args[args.length - 1] === "function" ? args[args.length - 1] : undefined;
    return listen.call(this, Number(args[0]), "127.0.0.1", cb);
  }
  return listen.apply(this, args);
};
