"""The governance engine, ported from the TypeScript one (policies/ and gateway/): same decisions, same record text."""
