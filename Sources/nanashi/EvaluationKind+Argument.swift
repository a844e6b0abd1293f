import ArgumentParser
import NanashiAI

/// `--eval nnue` or `--eval classic`.
extension EvaluationKind: ExpressibleByArgument {}
