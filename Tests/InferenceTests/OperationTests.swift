import Inference
import Testing

/// Every operation through the compiled runtime against the naive loops in
/// Support.swift, within 1e-5 of the reference's largest magnitude. Dense
/// layers run batches of 37, crossing the runtime's 16-image pass boundary twice.
@Suite struct OperationTests {
    struct ConvCase: CustomStringConvertible, Sendable {
        var channels: Int, outChannels: Int, kernelHeight: Int, kernelWidth: Int
        var stride: Int, padding: Int, height: Int, width: Int, bias: Bool
        var description: String {
            "\(channels)->\(outChannels) k\(kernelHeight)x\(kernelWidth) s\(stride) p\(padding) \(height)x\(width)"
        }
    }

    static let convCases: [ConvCase] = [
        ConvCase(channels: 1, outChannels: 32, kernelHeight: 3, kernelWidth: 3, stride: 1, padding: 1, height: 28, width: 28, bias: true),
        ConvCase(channels: 32, outChannels: 64, kernelHeight: 3, kernelWidth: 3, stride: 1, padding: 1, height: 14, width: 14, bias: true),
        ConvCase(channels: 3, outChannels: 5, kernelHeight: 3, kernelWidth: 3, stride: 2, padding: 1, height: 9, width: 9, bias: false),
        ConvCase(channels: 4, outChannels: 17, kernelHeight: 5, kernelWidth: 5, stride: 1, padding: 2, height: 7, width: 8, bias: true),
        ConvCase(channels: 8, outChannels: 40, kernelHeight: 1, kernelWidth: 1, stride: 1, padding: 0, height: 6, width: 6, bias: true),
        ConvCase(channels: 2, outChannels: 3, kernelHeight: 2, kernelWidth: 2, stride: 3, padding: 0, height: 10, width: 7, bias: true),
        ConvCase(channels: 6, outChannels: 70, kernelHeight: 3, kernelWidth: 1, stride: 2, padding: 0, height: 9, width: 31, bias: true),
        ConvCase(channels: 16, outChannels: 33, kernelHeight: 3, kernelWidth: 3, stride: 1, padding: 0, height: 5, width: 40, bias: false),
    ]

    @Test(arguments: convCases)
    func conv2d(_ c: ConvCase) throws {
        var random = Random(seed: UInt64(c.channels * 1000 + c.outChannels))
        let x = random.array([11, c.channels, c.height, c.width])
        let w = random.array([c.outChannels, c.channels, c.kernelHeight, c.kernelWidth])
        let b = random.array([c.outChannels])
        let expected = Reference.conv2d(x, w, c.bias ? b : nil, stride: c.stride, padding: c.padding)
        var model = ModelBuilder(inputs: [TensorSignature(name: "x", shape: [-1, c.channels, c.height, c.width])],
                                 outputs: [TensorSignature(name: "y", shape: [-1] + expected.shape.dropFirst())])
        model.tensors = ["w": w, "b": b]
        model.layers = [Layer(.conv2d(.init(weight: "w", bias: c.bias ? "b" : nil, stride: c.stride, padding: c.padding)),
                              name: "conv", inputs: ["x"], output: "y")]
        // Both kernels: the widest this CPU has (AVX-512 or AVX2) and the portable C other CPUs run.
        for kernels in [KernelChoice.fastest, .portable] {
            expectClose(try model.compile(kernels: kernels).run(inputs: ["x": x])["y"], expected)
        }
    }

    @Test(arguments: [(true, 2, 2, 0, 28), (true, 3, 2, 1, 15), (false, 2, 2, 0, 14), (false, 3, 1, 1, 9), (true, 3, 3, 0, 10)])
    func pooling(isMax: Bool, kernel: Int, stride: Int, padding: Int, size: Int) throws {
        var random = Random(seed: UInt64(kernel * 10 + stride))
        let x = random.array([11, 5, size, size + 1])
        let expected = Reference.pool(x, max: isMax, kernel: kernel, stride: stride, padding: padding)
        var model = ModelBuilder(inputs: [TensorSignature(name: "x", shape: [-1, 5, size, size + 1])],
                                 outputs: [TensorSignature(name: "y", shape: [-1] + expected.shape.dropFirst())])
        let pooling = LayerOperation.Pooling(kernel: kernel, stride: stride, padding: padding)
        model.layers = [Layer(isMax ? .maxPool(pooling) : .avgPool(pooling), name: "pool", inputs: ["x"], output: "y")]
        expectClose(try model.compile().run(inputs: ["x": x])["y"], expected)
    }

    /// A convolution followed by pooling with window = stride runs as one fused step.
    @Test(arguments: [(true, 2, 28, 32), (false, 2, 13, 20), (true, 3, 17, 64), (false, 3, 10, 8)])
    func convolutionThenPooling(isMax: Bool, pool: Int, size: Int, channels: Int) throws {
        var random = Random(seed: UInt64(pool * 100 + size))
        let x = random.array([11, 3, size, size])
        let w = random.array([channels, 3, 3, 3]), b = random.array([channels])
        let expected = Reference.pool(Reference.relu(Reference.conv2d(x, w, b, stride: 1, padding: 1)),
                                      max: isMax, kernel: pool, stride: pool, padding: 0)
        var model = ModelBuilder(inputs: [TensorSignature(name: "x", shape: [-1, 3, size, size])],
                                 outputs: [TensorSignature(name: "y", shape: [-1] + expected.shape.dropFirst())])
        model.tensors = ["w": w, "b": b]
        model.layers = [Layer(.conv2d(.init(weight: "w", bias: "b", padding: 1)), name: "conv", inputs: ["x"], output: "c"),
                        Layer(.relu, name: "relu", inputs: ["c"], output: "r"),
                        Layer(isMax ? .maxPool(.init(kernel: pool)) : .avgPool(.init(kernel: pool)), name: "pool",
                              inputs: ["r"], output: "y")]
        for kernels in [KernelChoice.fastest, .portable] {
            expectClose(try model.compile(kernels: kernels).run(inputs: ["x": x])["y"], expected)
        }
    }

    @Test func globalAvgPoolThenFlatten() throws {
        var random = Random(seed: 3)
        let x = random.array([11, 20, 7, 6])
        let pooled = Reference.globalAvgPool(x)
        var model = ModelBuilder(inputs: [TensorSignature(name: "x", shape: [-1, 20, 7, 6])],
                                 outputs: [TensorSignature(name: "pooled", shape: [-1, 20, 1, 1]),
                                           TensorSignature(name: "flat", shape: [-1, 20])])
        model.layers = [Layer(.globalAvgPool, name: "gap", inputs: ["x"], output: "pooled"),
                        Layer(.flatten, name: "flatten", inputs: ["pooled"], output: "flat")]
        let result = try model.compile().run(inputs: ["x": x])
        expectClose(result["pooled"], pooled)
        expectClose(result["flat"], Reference.flatten(pooled))
    }

    @Test func flattenKeepsChannelRowColumnOrder() throws {
        // An image flattened as an output must come out in PyTorch's order, not channels-last.
        var random = Random(seed: 4)
        let x = random.array([11, 3, 4, 5])
        var model = ModelBuilder(inputs: [TensorSignature(name: "x", shape: [-1, 3, 4, 5])],
                                 outputs: [TensorSignature(name: "y", shape: [-1, 60])])
        model.layers = [Layer(.flatten, name: "flatten", inputs: ["x"], output: "y")]
        let result = try model.compile().run(inputs: ["x": x])
        #expect(result["y"] == Reference.flatten(x))
    }

    @Test(arguments: [true, false])
    func flattenThenDense(bias: Bool) throws {
        // The runtime folds flatten into the dense weights; the result must not change.
        var random = Random(seed: 5)
        let x = random.array([11, 7, 3, 4])
        let w = random.array([37, 84]), b = random.array([37])
        let expected = Reference.dense(Reference.flatten(x), w, bias ? b : nil)
        var model = ModelBuilder(inputs: [TensorSignature(name: "x", shape: [-1, 7, 3, 4])],
                                 outputs: [TensorSignature(name: "y", shape: [-1, 37])])
        model.tensors = ["w": w, "b": b]
        model.layers = [Layer(.flatten, name: "flatten", inputs: ["x"], output: "flat"),
                        Layer(.dense(.init(weight: "w", bias: bias ? "b" : nil)), name: "fc", inputs: ["flat"], output: "y")]
        expectClose(try model.compile().run(inputs: ["x": x])["y"], expected)
    }

    /// One dense layer, x [N, features] to y [N, outputs], weights w [outputs, features] and bias b.
    static func denseModel(_ w: NDArray, _ b: NDArray) -> ModelBuilder {
        var model = ModelBuilder(inputs: [TensorSignature(name: "x", shape: [-1, w.shape[1]])],
                                 outputs: [TensorSignature(name: "y", shape: [-1, w.shape[0]])])
        model.tensors = ["w": w, "b": b]
        model.layers = [Layer(.dense(.init(weight: "w", bias: "b")), name: "fc", inputs: ["x"], output: "y")]
        return model
    }

    @Test(arguments: [(1, 10), (128, 10), (3136, 128), (50, 16), (17, 65)])
    func dense(features: Int, outputs: Int) throws {
        var random = Random(seed: UInt64(features + outputs))
        let x = random.array([37, features])
        let w = random.array([outputs, features]), b = random.array([outputs])
        let model = Self.denseModel(w, b)
        for kernels in [KernelChoice.fastest, .portable] {
            expectClose(try model.compile(kernels: kernels).run(inputs: ["x": x])["y"], Reference.dense(x, w, b))
        }
    }

    /// One, two or three images take another dense kernel on CPUs with AVX2 and
    /// without AVX-512 (more sums in flight for one image); each output must be
    /// the one the same image gets in a batch of 16, bit for bit.
    @Test(arguments: [(3136, 128), (128, 10), (17, 65), (50, 16)])
    func denseOnAFewImagesMatchesTheBatch(features: Int, outputs: Int) throws {
        var random = Random(seed: UInt64(features * 3 + outputs))
        let x = random.array([16, features])
        let compiled = try Self.denseModel(random.array([outputs, features]), random.array([outputs])).compile()
        let batch = try #require(try compiled.run(inputs: ["x": x])["y"]).scalars
        for count in 1...3 {
            let first = NDArray(shape: [count, features], scalars: Array(x.scalars[0..<count * features]))
            let few = try #require(try compiled.run(inputs: ["x": first])["y"]).scalars
            let differing = zip(few, batch).filter { $0.bitPattern != $1.bitPattern }.count
            #expect(differing == 0, "\(count) images: \(differing) of \(few.count) outputs differ from the batch's")
        }
    }

    @Test(arguments: [[6, 5, 4], [9]])
    func batchNormAlone(_ sample: [Int]) throws {
        var random = Random(seed: 6)
        let c = sample[0]
        let x = random.array([11] + sample)
        let gamma = random.array([c]), beta = random.array([c]), mean = random.array([c])
        let variance = NDArray(shape: [c], scalars: (0..<c).map { _ in 0.5 + abs(random.float()) })
        var model = ModelBuilder(inputs: [TensorSignature(name: "x", shape: [-1] + sample)],
                                 outputs: [TensorSignature(name: "y", shape: [-1] + sample)])
        model.tensors = ["g": gamma, "b": beta, "m": mean, "v": variance]
        model.layers = [Layer(.batchNorm(.init(gamma: "g", beta: "b", mean: "m", variance: "v", epsilon: 1e-3)),
                              name: "bn", inputs: ["x"], output: "y")]
        let expected = Reference.batchNorm(x, gamma: gamma, beta: beta, mean: mean, variance: variance, epsilon: 1e-3)
        expectClose(try model.compile().run(inputs: ["x": x])["y"], expected)
    }

    @Test(arguments: [[6, 5, 4], [9]])
    func reluAndDropout(_ sample: [Int]) throws {
        var random = Random(seed: 7)
        let x = random.array([11] + sample)
        var model = ModelBuilder(inputs: [TensorSignature(name: "x", shape: [-1] + sample)],
                                 outputs: [TensorSignature(name: "y", shape: [-1] + sample),
                                           TensorSignature(name: "z", shape: [-1] + sample)])
        model.layers = [Layer(.relu, name: "relu", inputs: ["x"], output: "y"),
                        Layer(.dropout(.init(rate: 0.3)), name: "drop", inputs: ["x"], output: "z")]
        let result = try model.compile().run(inputs: ["x": x])
        #expect(result["y"] == Reference.relu(x))
        #expect(result["z"] == x)
    }

    @Test func addWithResidualBlock() throws {
        // y = relu(conv(x) + x): the add reads a padded input and a convolution's output.
        var random = Random(seed: 8)
        let x = random.array([11, 8, 9, 9])
        let w = random.array([8, 8, 3, 3], scale: 0.3)
        let expected = Reference.relu(Reference.add(Reference.conv2d(x, w, nil, stride: 1, padding: 1), x))
        var model = ModelBuilder(inputs: [TensorSignature(name: "x", shape: [-1, 8, 9, 9])],
                                 outputs: [TensorSignature(name: "y", shape: [-1, 8, 9, 9])])
        model.tensors = ["w": w]
        model.layers = [Layer(.conv2d(.init(weight: "w", padding: 1)), name: "conv", inputs: ["x"], output: "c"),
                        Layer(.add, name: "add", inputs: ["c", "x"], output: "s"),
                        Layer(.relu, name: "relu", inputs: ["s"], output: "y")]
        expectClose(try model.compile().run(inputs: ["x": x])["y"], expected)
    }

    @Test func referenceArchitectureMatchesNaiveForward() throws {
        let file = referenceModel()
        var random = Random(seed: 9)
        let image = NDArray(shape: [3, 1, 28, 28], scalars: (0..<3 * 784).map { _ in abs(random.float()) })
        let expected = Reference.run(file, inputs: ["image": image])["logits"]!
        for kernels in [KernelChoice.fastest, .portable] {
            let main = try CompiledModel(file: file, kernels: kernels).function(named: "main")
            expectClose(try main.run(inputs: ["image": image])["logits"], expected)
        }
    }
}
