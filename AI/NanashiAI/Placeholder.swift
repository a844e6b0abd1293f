// Placeholder until NanashiAI lands.
