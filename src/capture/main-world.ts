// MAIN-world hook (skeleton): observes posts made by this frame.
export {};
