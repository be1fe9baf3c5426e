import CInferenceKernels
import Foundation

/// Specialisation: from a checked graph to steps, slots and packed weights.
///
/// 1. Lower: dropout disappears; batch norm folds into the convolution or
///    dense layer before it (when that layer's output feeds nothing else),
///    otherwise becomes a per-channel affine step; ReLU fuses into the step
///    before it on the same condition.
/// 2. Lay out: values are channels-last; a value read by a padded convolution
///    keeps a zero border as wide as the widest padding; flatten costs
///    nothing when only dense layers read it (their weight columns are
///    permuted to channels-last order instead).
/// 3. Plan memory: each value gets a slot, reused once its last reader ran.
extension Program {
    /// Images per pass: enough for the dense layers to reuse each weight
    /// several times, few enough that a pass's scratch stays small.
    static let defaultChunk = 16

    private struct Node {
        enum Kind {
            case conv(weight: [Float], bias: [Float], kernelHeight: Int, kernelWidth: Int, stride: Int, padding: Int)
            /// A convolution whose output only a pooling with window = stride and no padding reads.
            case convPool(weight: [Float], bias: [Float], kernelHeight: Int, kernelWidth: Int, stride: Int, padding: Int,
                          max: Bool, pool: Int)
            case dense(weight: [Float], bias: [Float])
            case pool(max: Bool, kernel: Int, stride: Int, padding: Int)
            case globalAvgPool
            case affine(scale: [Float], shift: [Float])
            case relu
            case add
            case flatten
        }
        var kind: Kind
        var inputs: [String]
        var output: String
        var shape: SampleShape
        var relu = false

        var fusesActivation: Bool {
            switch kind {
            case .conv, .dense, .affine, .add: true
            default: false
            }
        }
    }

    convenience init(checked function: CheckedFunction, tensors: [String: NDArray], kernels: KernelChoice,
                     chunk: Int = Program.defaultChunk) {
        // Dropout is the identity at inference: its output is another name for its input.
        var alias: [String: String] = [:]
        func resolve(_ name: String) -> String {
            var name = name
            while let next = alias[name] { name = next }
            return name
        }
        for layer in function.layers.map(\.layer) where layer.op == .dropout {
            alias[layer.output] = resolve(layer.inputs[0])
        }
        var uses: [String: Int] = [:]
        for layer in function.layers.map(\.layer) where layer.op != .dropout {
            for input in layer.inputs { uses[resolve(input), default: 0] += 1 }
        }
        let outputValues = function.outputs.map { resolve($0.name) }
        for value in outputValues { uses[value, default: 0] += 1 }
        let isOutput = Set(outputValues)
        var shapes: [String: SampleShape] = [:]
        for input in function.inputs { shapes[input.name] = input.shape }

        // 1. Lower.
        var nodes: [Node] = []
        var producer: [String: Int] = [:]
        func soleProducer(of value: String) -> Int? {
            guard let index = producer[value], uses[value] == 1, !isOutput.contains(value) else { return nil }
            return index
        }
        func append(_ node: Node) {
            producer[node.output] = nodes.count
            nodes.append(node)
        }
        func rename(_ index: Int, to name: String) {
            producer[nodes[index].output] = nil
            nodes[index].output = name
            producer[name] = index
        }
        for checked in function.layers {
            let layer = checked.layer
            let inputs = layer.inputs.map(resolve)
            shapes[layer.output] = checked.shape
            var node = Node(kind: .relu, inputs: inputs, output: layer.output, shape: checked.shape)
            switch layer.op {
            case .dropout:
                continue
            case .conv2d:
                let weight = tensors[layer.weight!]!
                let bias = layer.bias.map { tensors[$0]!.scalars } ?? [Float](repeating: 0, count: weight.shape[0])
                node.kind = .conv(weight: weight.scalars, bias: bias, kernelHeight: weight.shape[2],
                                  kernelWidth: weight.shape[3], stride: layer.stride ?? 1, padding: layer.padding ?? 0)
            case .dense:
                let weight = tensors[layer.weight!]!
                let bias = layer.bias.map { tensors[$0]!.scalars } ?? [Float](repeating: 0, count: weight.shape[0])
                node.kind = .dense(weight: weight.scalars, bias: bias)
            case .batchNorm:
                let (scale, shift) = Self.batchNormAffine(layer, tensors: tensors)
                if let index = soleProducer(of: inputs[0]), !nodes[index].relu {
                    switch nodes[index].kind {
                    case .conv(var weight, var bias, let kh, let kw, let stride, let padding):
                        Self.fold(scale: scale, shift: shift, into: &weight, bias: &bias)
                        nodes[index].kind = .conv(weight: weight, bias: bias, kernelHeight: kh, kernelWidth: kw,
                                                  stride: stride, padding: padding)
                        rename(index, to: layer.output)
                        continue
                    case .dense(var weight, var bias):
                        Self.fold(scale: scale, shift: shift, into: &weight, bias: &bias)
                        nodes[index].kind = .dense(weight: weight, bias: bias)
                        rename(index, to: layer.output)
                        continue
                    default:
                        break
                    }
                }
                node.kind = .affine(scale: scale, shift: shift)
            case .relu:
                if let index = soleProducer(of: inputs[0]), nodes[index].fusesActivation, !nodes[index].relu {
                    nodes[index].relu = true
                    rename(index, to: layer.output)
                    continue
                }
                node.kind = .relu
            case .maxPool, .avgPool:
                let (kernel, stride, padding) = (layer.kernel!, layer.stride ?? layer.kernel!, layer.padding ?? 0)
                if kernel == stride, padding == 0, let index = soleProducer(of: inputs[0]),
                   case .conv(let weight, let bias, let kh, let kw, let convStride, let convPadding) = nodes[index].kind,
                   case .image(let channels, _, let width) = shapes[inputs[0]]!,
                   ik_conv2d_pool_scratch(Int32(width), Int32(channels), Int32(kernel)) <= 8192 {
                    // Pool each group of convolution rows while they are still in L1.
                    nodes[index].kind = .convPool(weight: weight, bias: bias, kernelHeight: kh, kernelWidth: kw,
                                                  stride: convStride, padding: convPadding,
                                                  max: layer.op == .maxPool, pool: kernel)
                    nodes[index].shape = checked.shape
                    rename(index, to: layer.output)
                    continue
                }
                node.kind = .pool(max: layer.op == .maxPool, kernel: kernel, stride: stride, padding: padding)
            case .globalAvgPool:
                node.kind = .globalAvgPool
            case .flatten:
                node.kind = .flatten
            case .add:
                node.kind = .add
            }
            append(node)
        }

        // 2. Lay out.
        var readers: [String: [Int]] = [:]
        for (index, node) in nodes.enumerated() {
            for input in node.inputs { readers[input, default: []].append(index) }
        }
        var border: [String: Int] = [:]
        for node in nodes {
            switch node.kind {
            case .conv(_, _, _, _, _, let padding), .convPool(_, _, _, _, _, let padding, _, _):
                border[node.inputs[0]] = max(border[node.inputs[0]] ?? 0, padding)
            default:
                break
            }
        }
        // A flatten is free (shares its input's storage) when its input has no
        // border and either the order is the same or only dense layers read it.
        var sharesStorage: [String: String] = [:]     // flatten output -> its input
        var channelsLastColumns: [Int: SampleShape] = [:]  // dense node -> image whose flatten it reads
        for node in nodes {
            guard case .flatten = node.kind else { continue }
            let input = node.inputs[0]
            guard (border[input] ?? 0) == 0 else { continue }
            switch shapes[input]! {
            case .features:
                sharesStorage[node.output] = input
            case .image(let c, let h, let w) where c == 1 || h * w == 1:
                sharesStorage[node.output] = input
            case .image:
                let denseReaders = (readers[node.output] ?? []).filter {
                    if case .dense = nodes[$0].kind { return true } else { return false }
                }
                guard !isOutput.contains(node.output), denseReaders.count == (readers[node.output] ?? []).count else { continue }
                sharesStorage[node.output] = input
                for reader in denseReaders { channelsLastColumns[reader] = shapes[input]! }
            }
        }

        // 3. Plan memory. A storage is one value, or a value and the flattens sharing it.
        func storage(_ value: String) -> String { sharesStorage[value].map(storage) ?? value }
        var lastUse: [String: Int] = [:]
        for (index, node) in nodes.enumerated() {
            for input in node.inputs { lastUse[storage(input)] = max(lastUse[storage(input)] ?? -1, index) }
        }
        for value in outputValues { lastUse[storage(value)] = nodes.count }
        func floatsPerImage(_ value: String) -> Int {
            let b = border[value] ?? 0
            let size: Int
            switch shapes[value]! {
            case .image(let c, let h, let w): size = (h + 2 * b) * (w + 2 * b) * c
            case .features(let f): size = f
            }
            return (size + 15) / 16 * 16
        }
        var slotSizes: [Int] = []
        var slotFreeAfter: [Int] = []
        var slotOf: [String: Int] = [:]
        func place(_ value: String, producedAt step: Int) {
            let size = floatsPerImage(value)
            let reusable = slotSizes.indices.filter { slotFreeAfter[$0] < step }
            // The smallest free slot that fits, else the largest free one grown, else a new one.
            let slot = reusable.filter { slotSizes[$0] >= size }.min { slotSizes[$0] < slotSizes[$1] }
                ?? reusable.max { slotSizes[$0] < slotSizes[$1] }
            if let slot {
                slotSizes[slot] = max(slotSizes[slot], size)
                slotFreeAfter[slot] = lastUse[value] ?? step
                slotOf[value] = slot
            } else {
                slotOf[value] = slotSizes.count
                slotSizes.append(size)
                slotFreeAfter.append(lastUse[value] ?? step)
            }
        }
        for input in function.inputs { place(input.name, producedAt: -1) }
        for (index, node) in nodes.enumerated() where sharesStorage[node.output] == nil {
            place(node.output, producedAt: index)
        }
        var slotOffsets: [Int] = []
        var total = 0
        for size in slotSizes {
            slotOffsets.append(total)
            total += size * chunk
        }
        func slot(_ value: String) -> Slot {
            let home = storage(value)
            let b = border[home] ?? 0
            let offset = slotOffsets[slotOf[home]!]
            let stride = slotSizes[slotOf[home]!]
            switch shapes[value]! {
            case .image(let c, let h, let w):
                return Slot(offset: offset, imageStride: stride, height: Int32(h), width: Int32(w),
                            channels: Int32(c), border: Int32(b))
            case .features(let f):
                return Slot(offset: offset, imageStride: stride, height: 1, width: 1, channels: Int32(f), border: 0)
            }
        }

        // Steps and packed weights.
        var arena = WeightArena(portable: kernels == .portable)
        var steps: [Step] = []
        var flops = 0
        for (index, node) in nodes.enumerated() {
            let output = slot(node.output)
            switch node.kind {
            case .conv(let weight, let bias, let kh, let kw, let stride, let padding):
                guard case .image(let inChannels, _, _) = shapes[node.inputs[0]]!,
                      case .image(let outChannels, let oh, let ow) = node.shape else { preconditionFailure("checked") }
                let conv = arena.pack(weight: weight, bias: bias, outChannels: outChannels, inChannels: inChannels,
                                      kernelHeight: kh, kernelWidth: kw, stride: stride, padding: padding,
                                      relu: node.relu, dense: false)
                steps.append(.conv(conv, input: slot(node.inputs[0]), output: output))
                flops += 2 * outChannels * inChannels * kh * kw * oh * ow
            case .convPool(let weight, let bias, let kh, let kw, let stride, let padding, let max, let pool):
                guard case .image(let inChannels, let h, let w) = shapes[node.inputs[0]]!,
                      case .image(let outChannels, _, _) = node.shape else { preconditionFailure("checked") }
                let conv = arena.pack(weight: weight, bias: bias, outChannels: outChannels, inChannels: inChannels,
                                      kernelHeight: kh, kernelWidth: kw, stride: stride, padding: padding,
                                      relu: node.relu, dense: false)
                steps.append(.convPool(conv, max: max, pool: Int32(pool), input: slot(node.inputs[0]), output: output))
                let (oh, ow) = ((h + 2 * padding - kh) / stride + 1, (w + 2 * padding - kw) / stride + 1)
                flops += 2 * outChannels * inChannels * kh * kw * oh * ow
            case .dense(var weight, let bias):
                let outFeatures = node.shape.channels
                let inFeatures = shapes[node.inputs[0]]!.count
                if case .image(let c, let h, let w) = channelsLastColumns[index] {
                    weight = Self.channelsLastColumns(weight, rows: outFeatures, channels: c, height: h, width: w)
                }
                let conv = arena.pack(weight: weight, bias: bias, outChannels: outFeatures, inChannels: inFeatures,
                                      kernelHeight: 1, kernelWidth: 1, stride: 1, padding: 0,
                                      relu: node.relu, dense: true)
                var input = slot(node.inputs[0])
                (input.height, input.width, input.channels) = (1, 1, Int32(inFeatures))
                steps.append(.dense(conv, input: input, output: output))
                flops += 2 * outFeatures * inFeatures
            case .pool(let max, let kernel, let stride, let padding):
                steps.append(.pool(max: max, kernel: Int32(kernel), stride: Int32(stride), padding: Int32(padding),
                                   input: slot(node.inputs[0]), output: output))
            case .globalAvgPool:
                steps.append(.globalAvgPool(input: slot(node.inputs[0]), output: output))
            case .affine(let scale, let shift):
                steps.append(.affine(scale: arena.append(scale), shift: arena.append(shift), relu: node.relu,
                                     input: slot(node.inputs[0]), output: output))
            case .relu:
                steps.append(.copy(input: slot(node.inputs[0]), output: output, relu: true))
            case .add:
                steps.append(.add(slot(node.inputs[0]), slot(node.inputs[1]), relu: node.relu, output: output))
            case .flatten:
                guard sharesStorage[node.output] == nil else { continue }
                if case .image = shapes[node.inputs[0]]! {
                    steps.append(.flatten(input: slot(node.inputs[0]), output: output))
                } else {
                    steps.append(.copy(input: slot(node.inputs[0]), output: output, relu: false))
                }
            }
        }
        self.init(inputs: function.inputs, outputs: function.outputs,
                  inputSlots: function.inputs.map { slot($0.name) },
                  outputSlots: outputValues.map(slot),
                  steps: steps, chunk: chunk, workspaceFloats: total, flopsPerSample: flops,
                  weights: arena.floats)
    }

    /// Batch norm as `y = x * scale + shift` per channel.
    private static func batchNormAffine(_ layer: Layer, tensors: [String: NDArray]) -> (scale: [Float], shift: [Float]) {
        let mean = tensors[layer.mean!]!.scalars
        let variance = tensors[layer.variance!]!.scalars
        let gamma = layer.gamma.map { tensors[$0]!.scalars } ?? [Float](repeating: 1, count: mean.count)
        let beta = layer.beta.map { tensors[$0]!.scalars } ?? [Float](repeating: 0, count: mean.count)
        let epsilon = Double(layer.epsilon ?? 1e-5)
        var scale = [Float](repeating: 0, count: mean.count)
        var shift = scale
        for c in mean.indices {
            let s = Double(gamma[c]) / (Double(variance[c]) + epsilon).squareRoot()
            scale[c] = Float(s)
            shift[c] = Float(Double(beta[c]) - Double(mean[c]) * s)
        }
        return (scale, shift)
    }

    /// Scales each output channel's weights and maps its bias through the affine.
    private static func fold(scale: [Float], shift: [Float], into weight: inout [Float], bias: inout [Float]) {
        let perOutput = weight.count / scale.count
        for o in scale.indices {
            for i in o * perOutput..<(o + 1) * perOutput { weight[i] *= scale[o] }
            bias[o] = bias[o] * scale[o] + shift[o]
        }
    }

    /// Reorders a dense weight's columns from flatten's (c, h, w) order to the
    /// channels-last (h, w, c) order the runtime keeps images in.
    private static func channelsLastColumns(_ weight: [Float], rows: Int, channels: Int, height: Int, width: Int) -> [Float] {
        var result = weight
        let columns = channels * height * width
        for row in 0..<rows {
            for c in 0..<channels {
                for h in 0..<height {
                    for w in 0..<width {
                        result[row * columns + (h * width + w) * channels + c] = weight[row * columns + (c * height + h) * width + w]
                    }
                }
            }
        }
        return result
    }
}

/// The packed weights of a program, gathered into one array at 64-byte
/// aligned offsets before they move into the program's allocation.
struct WeightArena {
    /// Whether the convolutions it packs use the portable kernel.
    let portable: Bool
    private(set) var floats: [Float] = []

    mutating func append(_ values: [Float]) -> Int {
        while floats.count % 16 != 0 { floats.append(0) }
        let offset = floats.count
        floats += values
        return offset
    }

    mutating func pack(weight: [Float], bias: [Float], outChannels: Int, inChannels: Int,
                       kernelHeight: Int, kernelWidth: Int, stride: Int, padding: Int,
                       relu: Bool, dense: Bool) -> Program.Convolution {
        let block = portable ? 16 : ik_preferred_block(Int32(outChannels), dense ? 1 : 0)
        var packed = [Float](repeating: 0, count: ik_packed_weights_count(
            Int32(outChannels), Int32(inChannels), Int32(kernelHeight * kernelWidth), block))
        var packedBias = [Float](repeating: 0, count: ik_packed_bias_count(Int32(outChannels), block))
        ik_pack_conv(weight, bias, Int32(outChannels), Int32(inChannels), Int32(kernelHeight),
                     Int32(kernelWidth), block, &packed, &packedBias)
        return Program.Convolution(
            weights: append(packed), bias: append(packedBias), inChannels: Int32(inChannels),
            outChannels: Int32(outChannels), kernelHeight: Int32(kernelHeight), kernelWidth: Int32(kernelWidth),
            blockWidth: block, stride: Int32(stride), padding: Int32(padding), relu: relu, portable: portable)
    }
}
