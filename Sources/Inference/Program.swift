import CInferenceKernels

/// One function specialised for the kernels: a flat list of steps over
/// channels-last scratch views, weights packed in one aligned allocation, and
/// a pool of scratch workspaces. Built once by `Program(checked:tensors:kernels:)`
/// (Program+Planning.swift); immutable afterwards, so any number of threads
/// may run it at once, each on a workspace of its own.
package final class Program: @unchecked Sendable {
    /// Where a value lives in a workspace, and its geometry.
    package struct Slot: Sendable, Equatable {
        var offset: Int         // floats from the workspace's start
        var imageStride: Int    // floats from one image to the next
        var height: Int32, width: Int32, channels: Int32, border: Int32

        func view(_ workspace: UnsafeMutablePointer<Float>, image: Int = 0) -> ik_view {
            ik_view(data: workspace + offset + image * imageStride, image_stride: imageStride,
                    height: height, width: width, channels: channels, border: border)
        }
    }

    let inputs: [(name: String, shape: SampleShape)]
    let outputs: [(name: String, shape: SampleShape)]
    let inputSlots: [Slot]
    let outputSlots: [Slot]
    let steps: [any ProgramStep]
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
         inputSlots: [Slot], outputSlots: [Slot], steps: [any ProgramStep], chunk: Int, workspaceFloats: Int,
         flopsPerSample: Int, weights: [Float]) {
        self.inputs = inputs
        self.outputs = outputs
        self.inputSlots = inputSlots
        self.outputSlots = outputSlots
        self.steps = steps
        self.perImageSteps = steps.firstIndex { $0.reusesWeightsAcrossImages } ?? steps.count
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
            // Every step's views start at `image`: each image's part of a slot
            // is touched only by that image's steps, so running images one at
            // a time through a prefix of the steps keeps the slot plan valid.
            for image in 0..<n {
                for step in steps[0..<perImageSteps] {
                    step.run(workspace, weights: weights, image: image, count: 1)
                }
            }
            for step in steps[perImageSteps...] {
                step.run(workspace, weights: weights, image: 0, count: Int32(n))
            }
            for i in 0..<outputs.count {
                let size = outputs[i].shape.count
                ik_export_nchw(outputSlots[i].view(workspace), destinations[i] + start * size, size, Int32(n))
            }
            start += n
        }
    }
}
