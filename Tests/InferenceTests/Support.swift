import Foundation
import Inference
import SeededRandom
import Testing

/// A small deterministic generator (SplitMix64), so every run sees the same data.
struct Random {
    var splitMix: SplitMix64

    init(seed: UInt64) { splitMix = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { splitMix.next() }

    /// Uniform in -scale..<scale.
    mutating func float(_ scale: Float = 1) -> Float {
        (Float(next() >> 40) / Float(1 << 24) * 2 - 1) * scale
    }

    mutating func array(_ shape: [Int], scale: Float = 1) -> NDArray {
        NDArray(shape: shape, scalars: (0..<shape.reduce(1, *)).map { _ in float(scale) })
    }
}

/// Expects `actual` within `tolerance` of `expected`, relative to the largest
/// magnitude in `expected` (sums of signed terms make per-element ratios meaningless near zero).
func expectClose(_ actual: NDArray?, _ expected: NDArray, tolerance: Float = 1e-5,
                 sourceLocation: SourceLocation = #_sourceLocation) {
    guard let actual else {
        Issue.record("no result", sourceLocation: sourceLocation)
        return
    }
    #expect(actual.shape == expected.shape, sourceLocation: sourceLocation)
    guard actual.shape == expected.shape else { return }
    let scale = max(expected.scalars.map(abs).max() ?? 0, 1e-3)
    var worst: Float = 0
    var worstIndex = 0
    for i in expected.scalars.indices {
        let error = abs(actual.scalars[i] - expected.scalars[i])
        if !(error <= worst) { worst = error; worstIndex = i }
    }
    #expect(worst <= tolerance * scale,
            "largest error \(worst) at \(worstIndex) (\(actual.scalars[worstIndex]) vs \(expected.scalars[worstIndex])), scale \(scale)",
            sourceLocation: sourceLocation)
}

/// Builds a one-function model file and compiles it with a contract matching its signatures.
struct ModelBuilder {
    var inputs: [TensorSignature]
    var outputs: [TensorSignature]
    var layers: [Layer] = []
    var tensors: [String: NDArray] = [:]
    var labels = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                  "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]

    var file: ModelFile {
        ModelFile(description: ModelDescription(
            name: "test", version: "1", labels: labels,
            functions: ["main": FunctionDescription(inputs: inputs, outputs: outputs, layers: layers)],
            training: ["note": "built by a test"]), tensors: tensors)
    }

    func compile(kernels: KernelChoice = .fastest) throws -> CompiledFunction {
        let contract = outputs.count == 1 && inputs.count == 1
            ? ModelContract(function: "main", input: inputs[0], output: outputs[0], labelCount: nil) : nil
        return try CompiledModel(file: file, contract: contract, kernels: kernels).function(named: "main")
    }
}

/// The reference architecture from issue 2 with random weights, through the public types.
func referenceModel(seed: UInt64 = 1) -> ModelFile {
    var random = Random(seed: seed)
    var builder = ModelBuilder(inputs: [TensorSignature(name: "image", shape: [-1, 1, 28, 28])],
                               outputs: [TensorSignature(name: "logits", shape: [-1, 10])])
    var previous = "image"
    var channels = 1
    for (index, (out, pool)) in [(32, false), (32, true), (64, false), (64, true)].enumerated() {
        let name = "conv\(index + 1)"
        let scale = (2 / Float(channels * 9)).squareRoot()
        builder.tensors["\(name).weight"] = random.array([out, channels, 3, 3], scale: scale)
        builder.tensors["\(name).bias"] = random.array([out], scale: 0.1)
        builder.tensors["\(name).bn.gamma"] = NDArray(shape: [out], scalars: (0..<out).map { _ in 1 + random.float(0.2) })
        builder.tensors["\(name).bn.beta"] = random.array([out], scale: 0.1)
        builder.tensors["\(name).bn.mean"] = random.array([out], scale: 0.1)
        builder.tensors["\(name).bn.variance"] = NDArray(shape: [out], scalars: (0..<out).map { _ in 1 + random.float(0.5) })
        builder.layers.append(Layer(.conv2d(.init(weight: "\(name).weight", bias: "\(name).bias", padding: 1)),
                                    name: name, inputs: [previous], output: "\(name).out"))
        builder.layers.append(Layer(.batchNorm(.init(gamma: "\(name).bn.gamma", beta: "\(name).bn.beta",
                                                     mean: "\(name).bn.mean", variance: "\(name).bn.variance", epsilon: 1e-5)),
                                    name: "\(name).bn", inputs: ["\(name).out"], output: "\(name).bn"))
        builder.layers.append(Layer(.relu, name: "\(name).relu", inputs: ["\(name).bn"], output: "\(name).relu"))
        previous = "\(name).relu"
        if pool {
            builder.layers.append(Layer(.maxPool(.init(kernel: 2, stride: 2)),
                                        name: "pool\(index)", inputs: [previous], output: "pool\(index)"))
            previous = "pool\(index)"
        }
        channels = out
    }
    builder.tensors["fc1.weight"] = random.array([128, 3136], scale: (2 / 3136 as Float).squareRoot())
    builder.tensors["fc1.bias"] = random.array([128], scale: 0.1)
    builder.tensors["fc2.weight"] = random.array([10, 128], scale: (2 / 128 as Float).squareRoot())
    builder.tensors["fc2.bias"] = random.array([10], scale: 0.1)
    builder.layers += [
        Layer(.flatten, name: "flatten", inputs: [previous], output: "flat"),
        Layer(.dense(.init(weight: "fc1.weight", bias: "fc1.bias")), name: "fc1", inputs: ["flat"], output: "fc1"),
        Layer(.relu, name: "fc1.relu", inputs: ["fc1"], output: "fc1.relu"),
        Layer(.dropout(.init(rate: 0.5)), name: "dropout", inputs: ["fc1.relu"], output: "dropped"),
        Layer(.dense(.init(weight: "fc2.weight", bias: "fc2.bias")), name: "fc2", inputs: ["dropped"], output: "logits"),
    ]
    return builder.file
}

/// Naive reference operations on NCHW / NF arrays, written for clarity.
enum Reference {
    static func conv2d(_ x: NDArray, _ w: NDArray, _ b: NDArray?, stride: Int, padding: Int) -> NDArray {
        let (n, c, h, wd) = (x.shape[0], x.shape[1], x.shape[2], x.shape[3])
        let (o, kh, kw) = (w.shape[0], w.shape[2], w.shape[3])
        let oh = (h + 2 * padding - kh) / stride + 1, ow = (wd + 2 * padding - kw) / stride + 1
        let xs = x.scalars, ws = w.scalars
        var ys = [Float](repeating: 0, count: n * o * oh * ow)
        for i in 0..<n { for f in 0..<o { for r in 0..<oh { for q in 0..<ow {
            var sum = Double(b?.scalars[f] ?? 0)
            for ch in 0..<c { for u in 0..<kh { for v in 0..<kw {
                let ih = r * stride - padding + u, iw = q * stride - padding + v
                if ih >= 0 && ih < h && iw >= 0 && iw < wd {
                    sum += Double(xs[((i * c + ch) * h + ih) * wd + iw]) * Double(ws[((f * c + ch) * kh + u) * kw + v])
                }
            } } }
            ys[((i * o + f) * oh + r) * ow + q] = Float(sum)
        } } } }
        return NDArray(shape: [n, o, oh, ow], scalars: ys)
    }

    static func batchNorm(_ x: NDArray, gamma: NDArray, beta: NDArray, mean: NDArray, variance: NDArray,
                          epsilon: Float) -> NDArray {
        let c = x.shape[1]
        let inner = x.count / (x.shape[0] * c)
        var y = x
        for i in 0..<x.count {
            let ch = (i / inner) % c
            y.scalars[i] = (x.scalars[i] - mean.scalars[ch]) / (variance.scalars[ch] + epsilon).squareRoot()
                * gamma.scalars[ch] + beta.scalars[ch]
        }
        return y
    }

    static func relu(_ x: NDArray) -> NDArray {
        NDArray(shape: x.shape, scalars: x.scalars.map { max($0, 0) })
    }

    static func pool(_ x: NDArray, max isMax: Bool, kernel: Int, stride: Int, padding: Int) -> NDArray {
        let (n, c, h, w) = (x.shape[0], x.shape[1], x.shape[2], x.shape[3])
        let oh = (h + 2 * padding - kernel) / stride + 1, ow = (w + 2 * padding - kernel) / stride + 1
        let xs = x.scalars
        var ys = [Float](repeating: 0, count: n * c * oh * ow)
        for plane in 0..<n * c { for r in 0..<oh { for q in 0..<ow {
            var best = -Float.infinity
            var sum: Float = 0
            for u in 0..<kernel { for v in 0..<kernel {
                let ih = r * stride - padding + u, iw = q * stride - padding + v
                guard ih >= 0 && ih < h && iw >= 0 && iw < w else { continue }
                let value = xs[(plane * h + ih) * w + iw]
                best = Swift.max(best, value)
                sum += value
            } }
            ys[(plane * oh + r) * ow + q] = isMax ? best : sum / Float(kernel * kernel)
        } } }
        return NDArray(shape: [n, c, oh, ow], scalars: ys)
    }

    static func globalAvgPool(_ x: NDArray) -> NDArray {
        let (n, c, h, w) = (x.shape[0], x.shape[1], x.shape[2], x.shape[3])
        let xs = x.scalars
        let ys = (0..<n * c).map { plane in
            xs[plane * h * w..<(plane + 1) * h * w].reduce(0, +) / Float(h * w)
        }
        return NDArray(shape: [n, c, 1, 1], scalars: ys)
    }

    static func flatten(_ x: NDArray) -> NDArray {
        x.reshaped([x.shape[0], x.count / x.shape[0]])
    }

    static func dense(_ x: NDArray, _ w: NDArray, _ b: NDArray?) -> NDArray {
        let (n, f, o) = (x.shape[0], x.shape[1], w.shape[0])
        let xs = x.scalars, ws = w.scalars
        var ys = [Float](repeating: 0, count: n * o)
        for i in 0..<n { for j in 0..<o {
            var sum = Double(b?.scalars[j] ?? 0)
            for k in 0..<f { sum += Double(xs[i * f + k]) * Double(ws[j * f + k]) }
            ys[i * o + j] = Float(sum)
        } }
        return NDArray(shape: [n, o], scalars: ys)
    }

    static func add(_ a: NDArray, _ b: NDArray) -> NDArray {
        NDArray(shape: a.shape, scalars: zip(a.scalars, b.scalars).map { $0 + $1 })
    }

    /// Runs a model's `main` layer by layer with these references.
    static func run(_ file: ModelFile, inputs: [String: NDArray]) -> [String: NDArray] {
        let function = file.description.functions["main"]!
        var values = inputs
        let t = file.tensors
        for layer in function.layers {
            let x = values[layer.inputs[0]]!
            let y: NDArray
            switch layer.operation {
            case .conv2d(let p): y = conv2d(x, t[p.weight]!, p.bias.map { t[$0]! }, stride: p.stride ?? 1, padding: p.padding ?? 0)
            case .batchNorm(let p):
                let c = x.shape[1]
                y = batchNorm(x, gamma: p.gamma.map { t[$0]! } ?? NDArray(shape: [c], repeating: 1),
                              beta: p.beta.map { t[$0]! } ?? NDArray(shape: [c], repeating: 0),
                              mean: t[p.mean]!, variance: t[p.variance]!, epsilon: p.epsilon ?? 1e-5)
            case .relu: y = relu(x)
            case .maxPool(let p): y = pool(x, max: true, kernel: p.kernel, stride: p.stride ?? p.kernel, padding: p.padding ?? 0)
            case .avgPool(let p): y = pool(x, max: false, kernel: p.kernel, stride: p.stride ?? p.kernel, padding: p.padding ?? 0)
            case .globalAvgPool: y = globalAvgPool(x)
            case .flatten: y = flatten(x)
            case .dense(let p): y = dense(x, t[p.weight]!, p.bias.map { t[$0]! })
            case .dropout: y = x
            case .add: y = add(x, values[layer.inputs[1]]!)
            }
            values[layer.output] = y
        }
        return Dictionary(uniqueKeysWithValues: function.outputs.map { ($0.name, values[$0.name]!) })
    }
}

/// A temporary directory removed when the closure returns.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("inference-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}
