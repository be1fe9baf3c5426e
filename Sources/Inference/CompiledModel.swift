import Foundation

/// A model file specialised once for this machine: every function's graph
/// checked and lowered to kernels, weights packed, scratch memory planned.
/// Make one per process and share it; `function(named:)` is cheap.
///
/// ```swift
/// let model = try CompiledModel(file: try ModelFile(contentsOf: url))
/// let main = try model.function(named: "main")
/// let logits = try main.run(inputs: ["image": image])["logits"]!
/// ```
public struct CompiledModel: Sendable {
    public let description: ModelDescription
    /// The contract the model was checked against, if any.
    public let contract: ModelContract?
    /// Scalars in the weight tensors the functions use.
    public let parameterCount: Int
    private let functions: [String: CompiledFunction]

    public var name: String { description.name }
    public var version: String { description.version }
    public var labels: [String] { description.labels }
    public var functionNames: [String] { functions.keys.sorted() }

    /// Checks and specialises every function of `file`. With a contract (by
    /// default the project's: `main`, `image` `[N,1,28,28]` to `logits`
    /// `[N,10]`, ten labels), also checks that the model keeps it.
    public init(file: ModelFile, contract: ModelContract? = .standard,
                kernels: KernelChoice = .fastest) throws(ModelError) {
        var functions: [String: CompiledFunction] = [:]
        var checkedFunctions: [String: CheckedFunction] = [:]
        for (name, function) in file.description.functions.sorted(by: { $0.key < $1.key }) {
            checkedFunctions[name] = try CheckedFunction(name: name, description: function, tensors: file.tensors)
        }
        if let contract {
            guard let main = checkedFunctions[contract.function] else { throw .noSuchFunction(contract.function) }
            try main.check(against: contract)
            if let labelCount = contract.labelCount, file.description.labels.count != labelCount {
                throw .badMetadata("the model has \(file.description.labels.count) labels, the contract wants \(labelCount)")
            }
        }
        var used: Set<String> = []
        for (name, checked) in checkedFunctions {
            functions[name] = CompiledFunction(name: name, program: Program(checked: checked, tensors: file.tensors, kernels: kernels))
            for layer in checked.layers.map(\.layer) { used.formUnion(layer.operation.tensors) }
        }
        self.description = file.description
        self.contract = contract
        self.functions = functions
        self.parameterCount = used.reduce(0) { $0 + file.tensors[$1]!.count }
    }

    /// Reads and specialises a model file.
    public init(contentsOf url: URL, contract: ModelContract? = .standard,
                kernels: KernelChoice = .fastest) throws(ModelError) {
        try self.init(file: ModelFile(contentsOf: url), contract: contract, kernels: kernels)
    }

    public func function(named name: String) throws(ModelError) -> CompiledFunction {
        guard let function = functions[name] else { throw .noSuchFunction(name) }
        return function
    }
}
