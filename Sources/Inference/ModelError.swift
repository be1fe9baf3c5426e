/// Everything that can be wrong with a model file or a call into a model.
/// Messages are one line and name the part that is wrong.
public enum ModelError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case truncated(String)
    case badHeader(String)
    case badMetadata(String)
    case badTensor(name: String, reason: String)
    case missingTensor(String)
    case shapeMismatch(String)
    case unknownOperation(String)
    case badGraph(String)
    case noSuchFunction(String)
    case badInput(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read model \(path): \(reason)"
        case .unwritable(let path, let reason): "cannot write model \(path): \(reason)"
        case .truncated(let what): "model file is truncated: \(what)"
        case .badHeader(let what): "model header is invalid: \(what)"
        case .badMetadata(let what): "model metadata is invalid: \(what)"
        case .badTensor(let name, let reason): "tensor '\(name)' is invalid: \(reason)"
        case .missingTensor(let name): "model lacks tensor '\(name)'"
        case .shapeMismatch(let what): "shape mismatch: \(what)"
        case .unknownOperation(let op): "unknown operation '\(op)'"
        case .badGraph(let what): "model graph is invalid: \(what)"
        case .noSuchFunction(let name): "model has no function '\(name)'"
        case .badInput(let what): "bad input: \(what)"
        }
    }
}
