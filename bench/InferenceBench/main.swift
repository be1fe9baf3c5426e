// inference-bench: times the Inference runtime on one thread, and runs a
// model on raw float32 files for the model-format check.
//
//   inference-bench reference --out PATH [--seed N]
//       writes the reference architecture of issue 2 with random weights
//   inference-bench bench --model PATH [--seconds S] [--json PATH]
//       batch-1 latency and batch-256 throughput of `main`, one thread
//   inference-bench run --model PATH --input IN.f32 --count N --output OUT.f32
//       runs `main` on N samples (little-endian float32, NCHW) for tools/check_model_format.py
//
// Times are thread CPU time (CLOCK_THREAD_CPUTIME_ID): the benchmark machine
// is shared, and CPU time leaves out the time other processes held the core.
import BenchSupport
import CPeakFLOPS
import Foundation
import Inference
import SeededRandom

struct Failure: Error, CustomStringConvertible {
    var description: String
}

func value(_ flag: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// The reference architecture with deterministic random weights (He-style scale).
func referenceModel(seed: UInt64) -> ModelFile {
    var random = SplitMix64(seed: seed)
    func uniform(_ scale: Float) -> Float {
        let z = random.next()
        return (Float(z >> 40) / Float(1 << 24) * 2 - 1) * scale
    }
    func tensor(_ shape: [Int], _ scale: Float, around center: Float = 0) -> NDArray {
        NDArray(shape: shape, scalars: (0..<shape.reduce(1, *)).map { _ in center + uniform(scale) })
    }
    var tensors: [String: NDArray] = [:]
    var layers: [Layer] = []
    var previous = ModelContract.standard.input.name, channels = ModelContract.channels
    for (index, (out, pool)) in [(32, false), (32, true), (64, false), (64, true)].enumerated() {
        let name = "conv\(index + 1)"
        tensors["\(name).weight"] = tensor([out, channels, 3, 3], (6 / Float(channels * 9)).squareRoot())
        tensors["\(name).bias"] = tensor([out], 0.05)
        tensors["\(name).bn.weight"] = tensor([out], 0.1, around: 1)
        tensors["\(name).bn.bias"] = tensor([out], 0.1)
        tensors["\(name).bn.running_mean"] = tensor([out], 0.1)
        tensors["\(name).bn.running_var"] = tensor([out], 0.2, around: 1)
        layers.append(Layer(.conv2d(.init(weight: "\(name).weight", bias: "\(name).bias", stride: 1, padding: 1)),
                            name: name, inputs: [previous], output: name))
        layers.append(Layer(.batchNorm(.init(gamma: "\(name).bn.weight", beta: "\(name).bn.bias",
                                             mean: "\(name).bn.running_mean", variance: "\(name).bn.running_var", epsilon: 1e-5)),
                            name: "\(name).bn", inputs: [name], output: "\(name).bn"))
        layers.append(Layer(.relu, name: "\(name).relu", inputs: ["\(name).bn"], output: "\(name).relu"))
        previous = "\(name).relu"
        if pool {
            layers.append(Layer(.maxPool(.init(kernel: 2, stride: 2)),
                                name: "pool\(index / 2 + 1)", inputs: [previous], output: "pool\(index / 2 + 1)"))
            previous = "pool\(index / 2 + 1)"
        }
        channels = out
    }
    // Two poolings by 2 leave 64 channels of a quarter of the side.
    let flat = 64 * (ModelContract.side / 4) * (ModelContract.side / 4)
    tensors["fc1.weight"] = tensor([128, flat], (6 / Float(flat)).squareRoot())
    tensors["fc1.bias"] = tensor([128], 0.05)
    tensors["fc2.weight"] = tensor([ModelContract.labels.count, 128], (6 / Float(128)).squareRoot())
    tensors["fc2.bias"] = tensor([ModelContract.labels.count], 0.05)
    layers += [
        Layer(.flatten, name: "flatten", inputs: [previous], output: "flat"),
        Layer(.dense(.init(weight: "fc1.weight", bias: "fc1.bias")), name: "fc1", inputs: ["flat"], output: "fc1"),
        Layer(.relu, name: "fc1.relu", inputs: ["fc1"], output: "fc1.relu"),
        Layer(.dropout(.init(rate: 0.25)), name: "dropout", inputs: ["fc1.relu"], output: "dropout"),
        Layer(.dense(.init(weight: "fc2.weight", bias: "fc2.bias")),
              name: "fc2", inputs: ["dropout"], output: ModelContract.standard.output.name),
    ]
    let contract = ModelContract.standard
    let main = FunctionDescription(inputs: [contract.input], outputs: [contract.output], layers: layers)
    return ModelFile(description: ModelDescription(name: "reference-cnn", version: "random-\(seed)", labels: ModelContract.labels,
                                                   functions: ["main": main],
                                                   training: ["architecture": "issue 2 reference", "weights": "random"]),
                     tensors: tensors)
}

/// Runs `body` repeatedly for about `seconds` of CPU time; returns CPU seconds per call
/// (median over rounds) and wall seconds per call (median).
func measure(seconds: Double, _ body: () throws -> Void) rethrows -> (cpu: Double, wall: Double) {
    // Warm up: caches, the workspace pool, page faults.
    let warmEnd = threadCPUSeconds() + min(0.2, seconds / 5)
    while threadCPUSeconds() < warmEnd { try body() }
    // Rounds of calls long enough (>= 2 ms) that the clock's cost does not matter.
    var perRound = 1
    while true {
        let start = threadCPUSeconds()
        for _ in 0..<perRound { try body() }
        if threadCPUSeconds() - start >= 0.002 { break }
        perRound *= 2
    }
    var cpu: [Double] = [], wall: [Double] = []
    let end = threadCPUSeconds() + seconds
    while threadCPUSeconds() < end || cpu.count < 5 {
        let c0 = threadCPUSeconds(), w0 = wallSeconds()
        for _ in 0..<perRound { try body() }
        cpu.append((threadCPUSeconds() - c0) / Double(perRound))
        wall.append((wallSeconds() - w0) / Double(perRound))
    }
    cpu.sort(); wall.sort()
    return (cpu[cpu.count / 2], wall[wall.count / 2])
}

func bench(_ arguments: [String]) throws {
    guard let path = value("--model", in: arguments) else { throw Failure(description: "bench needs --model PATH") }
    let seconds = Double(value("--seconds", in: arguments) ?? "3") ?? 3
    let model = try CompiledModel(contentsOf: URL(fileURLWithPath: path))
    let main = try model.function(named: "main")
    let flops = Double(main.flopsPerSample)
    let size = ModelContract.valuesPerImage
    var images = [Float](repeating: 0, count: 256 * size)
    var state: UInt32 = 1
    for i in images.indices {
        state = state &* 1_664_525 &+ 1_013_904_223
        images[i] = Float(state >> 8) / Float(1 << 24)
    }
    var logits = [Float](repeating: 0, count: 256 * 10)
    func run(_ count: Int) throws {
        try images.withUnsafeBufferPointer { input in
            try logits.withUnsafeMutableBufferPointer { output in
                try main.run(input: UnsafeBufferPointer(rebasing: input[0..<count * size]), count: count,
                             output: UnsafeMutableBufferPointer(rebasing: output[0..<count * 10]))
            }
        }
    }
    let single = try measure(seconds: seconds) { try run(1) }
    let batch = try measure(seconds: seconds) { try run(256) }
    let peak = (0..<3).map { _ in peak_gflops(20_000_000) }.max()!
    let result: [String: Any] = [
        "runtime": "wardrobe Inference",
        "model": path,
        "flops_per_image": flops,
        "batch1_us": single.cpu * 1e6,
        "batch1_wall_us": single.wall * 1e6,
        "batch256_images_per_s": 256 / batch.cpu,
        "batch256_wall_images_per_s": 256 / batch.wall,
        "peak_gflops": peak,
        "vector_width": Int(peak_vector_width()),
        "kernel_vector_width": KernelChoice.vectorWidth,
        "workspace_bytes": main.workspaceFloats * 4,
    ]
    print(String(format: "wardrobe: batch 1 %.1f us/image (wall %.1f), batch 256 %.0f images/s (wall %.0f), %.1f GFLOP/s of %.1f peak",
                 single.cpu * 1e6, single.wall * 1e6, 256 / batch.cpu, 256 / batch.wall,
                 flops * 256 / batch.cpu * 1e-9, peak))
    if let json = value("--json", in: arguments) {
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys, .prettyPrinted])
        try data.write(to: URL(fileURLWithPath: json))
    }
}

func runFiles(_ arguments: [String]) throws {
    guard let path = value("--model", in: arguments), let inputPath = value("--input", in: arguments),
          let outputPath = value("--output", in: arguments),
          let count = value("--count", in: arguments).flatMap(Int.init) else {
        throw Failure(description: "run needs --model, --input, --count and --output")
    }
    let file = try ModelFile(contentsOf: URL(fileURLWithPath: path))
    let model = try CompiledModel(file: file)
    let main = try model.function(named: "main")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: inputPath))
    let input = bytes.withUnsafeBytes { raw in (0..<bytes.count / 4).map { raw.loadUnaligned(fromByteOffset: 4 * $0, as: Float.self) } }
    var output = [Float](repeating: 0, count: count * 10)
    try input.withUnsafeBufferPointer { i in
        try output.withUnsafeMutableBufferPointer { try main.run(input: i, count: count, output: $0) }
    }
    try output.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: outputPath))
    print("\(model.name) \(model.version): \(count) samples, \(model.parameterCount) parameters, fingerprint \(file.fingerprint)")
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "reference":
        guard let out = value("--out", in: arguments) else { throw Failure(description: "reference needs --out PATH") }
        let seed = UInt64(value("--seed", in: arguments) ?? "1") ?? 1
        try referenceModel(seed: seed).write(to: URL(fileURLWithPath: out))
    case "bench":
        try bench(arguments)
    case "run":
        try runFiles(arguments)
    default:
        throw Failure(description: "usage: inference-bench reference|bench|run ... (see bench/InferenceBench/main.swift)")
    }
} catch {
    FileHandle.standardError.write(Data("inference-bench: error: \(error)\n".utf8))
    exit(1)
}
