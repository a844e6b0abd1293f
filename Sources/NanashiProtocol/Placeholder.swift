// Placeholder until NanashiProtocol lands.
