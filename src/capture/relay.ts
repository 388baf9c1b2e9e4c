// Isolated-world relay (skeleton): records message events received by this frame.
export {};
