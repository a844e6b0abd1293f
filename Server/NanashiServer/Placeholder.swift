// Placeholder until NanashiServer lands.
