import CInferenceKernels

/// One function specialised for the kernels: a flat list of steps over
/// channels-last scratch views, weights packed in one aligned allocation, and
/// a pool of scratch workspaces. Built once by `Program(checked:tensors:)`
/// (Program+Planning.swift); immutable afterwards, so any number of threads
/// may run it at once, each on a workspace of its own.
final class Program: @unchecked Sendable {
    /// Where a value lives in a workspace, and its geometry.
    struct Slot {
        var offset: Int         // floats from the workspace's start
        var imageStride: Int    // floats from one image to the next
        var height: Int32, width: Int32, channels: Int32, border: Int32

        func view(_ workspace: UnsafeMutablePointer<Float>, image: Int = 0) -> ik_view {
            ik_view(data: workspace + offset + image * imageStride, image_stride: imageStride,
                    height: height, width: width, channels: channels, border: border)
        }
    }

    /// A convolution or dense layer: packed weights at offsets into the arena.
    struct Convolution {
        var weights: Int, bias: Int
        var inChannels: Int32, outChannels: Int32, kernelHeight: Int32, kernelWidth: Int32
        var blockWidth: Int32, stride: Int32, padding: Int32, relu: Bool, portable: Bool

        func kernel(_ arena: UnsafePointer<Float>) -> ik_conv {
            ik_conv(weights: arena + weights, bias: arena + bias, in_channels: inChannels,
                    out_channels: outChannels, kernel_h: kernelHeight, kernel_w: kernelWidth,
                    block_width: blockWidth, stride: stride, padding: padding, relu: relu ? 1 : 0,
                    portable: portable ? 1 : 0)
        }
    }

    enum Step {
        case conv(Convolution, input: Slot, output: Slot)
        /// A convolution pooled as it goes (window = stride = `pool`, no padding).
        case convPool(Convolution, max: Bool, pool: Int32, input: Slot, output: Slot)
        case dense(Convolution, input: Slot, output: Slot)
        case pool(max: Bool, kernel: Int32, stride: Int32, padding: Int32, input: Slot, output: Slot)
        case globalAvgPool(input: Slot, output: Slot)
        case affine(scale: Int, shift: Int, relu: Bool, input: Slot, output: Slot)
        case add(Slot, Slot, relu: Bool, output: Slot)
        case copy(input: Slot, output: Slot, relu: Bool)
        /// flatten into PyTorch's order (channel, row, column) when the
        /// consumers cannot take channels-last order.
        case flatten(input: Slot, output: Slot)
    }

    let inputs: [(name: String, shape: SampleShape)]
    let outputs: [(name: String, shape: SampleShape)]
    let inputSlots: [Slot]
    let outputSlots: [Slot]
    let steps: [Step]
    /// The leading steps that gain nothing from several images at once
    /// (everything before the first dense layer) run image by image, so each
    /// image's activations stay in L2 from one convolution to the next; the
    /// rest run on the whole chunk, so dense layers reuse each weight `chunk` times.
    let perImageSteps: Int
    /// Images per pass through the steps; a larger batch runs in several passes.
    let chunk: Int
    let workspaceFloats: Int
    let flopsPerSample: Int
    private let arena: UnsafeMutableRawPointer
    private let workspaces: WorkspacePool

    init(inputs: [(name: String, shape: SampleShape)], outputs: [(name: String, shape: SampleShape)],
         inputSlots: [Slot], outputSlots: [Slot], steps: [Step], chunk: Int, workspaceFloats: Int,
         flopsPerSample: Int, weights: [Float]) {
        self.inputs = inputs
        self.outputs = outputs
        self.inputSlots = inputSlots
        self.outputSlots = outputSlots
        self.steps = steps
        self.perImageSteps = steps.firstIndex { if case .dense = $0 { true } else { false } } ?? steps.count
        self.chunk = chunk
        self.workspaceFloats = workspaceFloats
        self.flopsPerSample = flopsPerSample
        let arena = UnsafeMutableRawPointer.allocate(byteCount: max(weights.count, 16) * 4, alignment: 64)
        weights.withUnsafeBytes { if let base = $0.baseAddress { arena.copyMemory(from: base, byteCount: $0.count) } }
        self.arena = arena
        workspaces = WorkspacePool(floats: workspaceFloats)
    }

    deinit { arena.deallocate() }

    /// Runs `count` samples: `sources[i]` holds input i as dense NCHW (or
    /// [N, F]) floats, `destinations[i]` receives output i the same way.
    /// Sizes were checked by the caller. Allocates nothing once the pool holds
    /// a workspace per concurrent caller.
    func run(sources: UnsafeBufferPointer<UnsafePointer<Float>>,
             destinations: UnsafeBufferPointer<UnsafeMutablePointer<Float>>, count: Int) {
        let workspace = workspaces.acquire()
        defer { workspaces.release(workspace) }
        let weights = UnsafePointer(arena.assumingMemoryBound(to: Float.self))
        var start = 0
        while start < count {
            let n = min(chunk, count - start)
            for i in 0..<inputs.count {
                ik_import_nchw(sources[i] + start * inputs[i].shape.count, inputSlots[i].view(workspace), Int32(n))
            }
            for image in 0..<n {
                execute(steps[0..<perImageSteps], workspace: workspace, weights: weights, image: image, count: 1)
            }
            execute(steps[perImageSteps...], workspace: workspace, weights: weights, image: 0, count: Int32(n))
            for i in 0..<outputs.count {
                let size = outputs[i].shape.count
                ik_export_nchw(outputSlots[i].view(workspace), destinations[i] + start * size, size, Int32(n))
            }
            start += n
        }
    }

    private func execute(_ steps: ArraySlice<Step>, workspace: UnsafeMutablePointer<Float>,
                         weights: UnsafePointer<Float>, image: Int, count: Int32) {
        // Every view below starts at `image`: each image's part of a slot is
        // touched only by that image's steps, so running images one at a time
        // through a prefix of the steps keeps the slot plan valid.
        func v(_ slot: Slot) -> ik_view { slot.view(workspace, image: image) }
        for step in steps {
            switch step {
            case .conv(let conv, let input, let output):
                var kernel = conv.kernel(weights)
                ik_conv2d(&kernel, v(input), v(output), count)
            case .convPool(let conv, let max, let pool, let input, let output):
                var kernel = conv.kernel(weights)
                ik_conv2d_pool(&kernel, max ? 1 : 0, pool, v(input), v(output), count)
            case .dense(let conv, let input, let output):
                var kernel = conv.kernel(weights)
                ik_dense(&kernel, v(input), v(output), count)
            case .pool(let max, let kernel, let stride, let padding, let input, let output):
                ik_pool(max ? 1 : 0, v(input), v(output), count, kernel, stride, padding)
            case .globalAvgPool(let input, let output):
                ik_global_avg_pool(v(input), v(output), count)
            case .affine(let scale, let shift, let relu, let input, let output):
                ik_affine(v(input), v(output), count, weights + scale, weights + shift, relu ? 1 : 0)
            case .add(let a, let b, let relu, let output):
                ik_add(v(a), v(b), v(output), count, relu ? 1 : 0)
            case .copy(let input, let output, let relu):
                ik_copy(v(input), v(output), count, relu ? 1 : 0)
            case .flatten(let input, let output):
                let out = v(output)
                ik_export_nchw(v(input), out.data, out.image_stride, count)
            }
        }
    }
}
