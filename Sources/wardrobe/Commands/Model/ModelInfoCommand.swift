import Foundation
import Inference
import Training
import Wardrobe

/// `wardrobe model info`: what a model file says about itself.
struct ModelInfoCommand: Command {
    static let spec = CommandSpec(
        name: "info",
        abstract: "Show a model's name, version, size, labels, contract and training record.",
        usage: "[options] [FILE]",
        arguments: [("FILE", "The .aimodel file (default: the bundled clothing.aimodel).")],
        options: [.json])

    let path: String?
    let json: Bool

    init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.allowPositionals(atMost: 1)
        path = arguments.positionals.first
        json = arguments.flag("--json")
    }

    func run(_ console: Console) throws -> ExitStatus {
        let url = URL(fileURLWithPath: try console.setup.modelPath(explicit: path))
        let summary = ModelSummary(try ModelFile(contentsOf: url))
        if json {
            try console.json(summary)
            return .success
        }
        func signature(_ s: TensorSignature) -> String {
            "\(s.name) float32 [" + s.shape.map { $0 < 0 ? "N" : String($0) }.joined(separator: ", ") + "]"
        }
        console.output("file           \(url.path)")
        console.output("name           \(summary.name)")
        console.output("version        \(summary.version)")
        console.output("parameters     \(summary.parameters)")
        console.output("input          " + summary.inputs.map(signature).joined(separator: ", "))
        console.output("output         " + summary.outputs.map(signature).joined(separator: ", "))
        console.output("labels         " + summary.labels.enumerated().map { "\($0) \($1)" }.joined(separator: ", "))
        console.output("layers         \(summary.layers.count): " + summary.layers.joined(separator: " "))
        console.output("test accuracy  " + (summary.testAccuracy.map { String(format: "%.4f", $0) } ?? "not recorded"))
        if !summary.training.isEmpty {
            console.output("training")
            for key in summary.training.keys.sorted() where key != "test_accuracy" {
                console.output("  \(key.padding(toLength: 20, withPad: " ", startingAt: 0)) \(summary.training[key]!)")
            }
        }
        return .success
    }
}
