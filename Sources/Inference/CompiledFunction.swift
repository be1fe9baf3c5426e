/// One function of a compiled model, ready to run. A value type that shares
/// its specialised program: copy it, keep it, pass it to other threads.
///
/// Thread safety: any number of threads may call `run` at once. Each call
/// borrows a scratch workspace from the function's pool for its duration
/// (a lock guards only the borrow and the return); the pool grows to the
/// largest number of concurrent callers and never shrinks. With as many
/// workspaces as callers, the pointer form of `run` allocates nothing.
public struct CompiledFunction: Sendable {
    let program: Program

    public let name: String
    /// Inputs and outputs, `-1` standing for the batch dimension.
    public let inputs: [TensorSignature]
    public let outputs: [TensorSignature]

    init(name: String, program: Program) {
        self.name = name
        self.program = program
        inputs = program.inputs.map { TensorSignature(name: $0.name, shape: $0.shape.batched()) }
        outputs = program.outputs.map { TensorSignature(name: $0.name, shape: $0.shape.batched()) }
    }

    /// Floating-point operations per sample in convolutions and dense layers
    /// (a multiply-add counts two), for reporting throughput.
    public var flopsPerSample: Int { program.flopsPerSample }

    /// Floats of scratch memory one concurrent caller uses.
    public var workspaceFloats: Int { program.workspaceFloats }

    /// Runs a batch given by name: every input `[N, ...]` with the same N;
    /// returns every output `[N, ...]`.
    public func run(inputs values: [String: NDArray]) throws(ModelError) -> [String: NDArray] {
        var batch: Int?
        for key in values.keys where !program.inputs.contains(where: { $0.name == key }) {
            throw .badInput("'\(name)' has no input '\(key)'; it takes \(inputNames)")
        }
        var arrays: [NDArray] = []
        for input in program.inputs {
            guard let array = values[input.name] else {
                throw .badInput("input '\(input.name)' is missing")
            }
            let dims = input.shape.dimensions
            guard array.rank == dims.count + 1, Array(array.shape.dropFirst()) == dims else {
                throw .badInput("input '\(input.name)' has shape \(array.shape), expected \(input.shape.batched())")
            }
            if let batch, batch != array.shape[0] {
                throw .badInput("inputs have batch sizes \(batch) and \(array.shape[0])")
            }
            batch = array.shape[0]
            arrays.append(array)
        }
        let count = batch ?? 0
        var results = program.outputs.map { NDArray(shape: $0.shape.batched(count)) }
        withPointers(arrays, &results) { sources, destinations in
            program.run(sources: sources, destinations: destinations, count: count)
        }
        var named: [String: NDArray] = [:]
        for (output, result) in zip(program.outputs, results) { named[output.name] = result }
        return named
    }

    /// The allocation-free entry for a function with one input and one output:
    /// `input` holds `count` samples back to back (NCHW for images), `output`
    /// receives `count` results. Throws only if the buffer sizes are wrong.
    public func run(input: UnsafeBufferPointer<Float>, count: Int,
                    output: UnsafeMutableBufferPointer<Float>) throws(ModelError) {
        guard program.inputs.count == 1, program.outputs.count == 1 else {
            throw .badInput("'\(name)' has \(program.inputs.count) inputs and \(program.outputs.count) outputs; use run(inputs:)")
        }
        let inSize = program.inputs[0].shape.count, outSize = program.outputs[0].shape.count
        guard count >= 0, input.count == count * inSize else {
            throw .badInput("\(input.count) input values for \(count) samples of \(program.inputs[0].shape)")
        }
        guard output.count == count * outSize else {
            throw .badInput("room for \(output.count) output values, \(count) samples of \(program.outputs[0].shape) need \(count * outSize)")
        }
        guard count > 0, let source = input.baseAddress, let destination = output.baseAddress else { return }
        withUnsafeTemporaryAllocation(of: UnsafePointer<Float>.self, capacity: 1) { sources in
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>.self, capacity: 1) { destinations in
                sources[0] = source
                destinations[0] = destination
                program.run(sources: UnsafeBufferPointer(sources), destinations: UnsafeBufferPointer(destinations),
                            count: count)
            }
        }
    }

    private var inputNames: String {
        program.inputs.map { "'\($0.name)'" }.joined(separator: ", ")
    }

    /// Runs the program on copies of the inputs in raw memory (the
    /// convenience form pays these copies; the pointer form does not).
    private func withPointers(_ arrays: [NDArray], _ results: inout [NDArray],
                              _ body: (UnsafeBufferPointer<UnsafePointer<Float>>,
                                       UnsafeBufferPointer<UnsafeMutablePointer<Float>>) -> Void) {
        // A batch of zero runs nothing.
        guard arrays.allSatisfy({ $0.count > 0 }), results.allSatisfy({ $0.count > 0 }) else { return }
        let inputs = arrays.map { array in
            let copy = UnsafeMutableBufferPointer<Float>.allocate(capacity: array.count)
            _ = copy.initialize(from: array.scalars)
            return copy
        }
        let outputs = results.map { UnsafeMutableBufferPointer<Float>.allocate(capacity: $0.count) }
        defer {
            for buffer in inputs { buffer.deallocate() }
            for buffer in outputs { buffer.deallocate() }
        }
        let sources = inputs.map { UnsafePointer($0.baseAddress!) }
        let destinations = outputs.map { $0.baseAddress! }
        sources.withUnsafeBufferPointer { sources in
            destinations.withUnsafeBufferPointer { destinations in body(sources, destinations) }
        }
        for i in results.indices { results[i].scalars = Array(outputs[i]) }
    }
}
