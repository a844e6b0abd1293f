// Placeholder until NanashiTerminal lands.
