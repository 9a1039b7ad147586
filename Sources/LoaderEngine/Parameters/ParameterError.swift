/// A parameter that cannot be used, with a message that names it and the
/// accepted form. The service answers it as a 400.
public struct ParameterError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        /// A known name with a value outside its accepted form or range.
        case invalidParameter = "invalid_parameter"
        /// A name the loader (or endpoint) does not take.
        case unknownParameter = "unknown_parameter"
    }

    public let code: Code
    public let parameter: String
    public let message: String

    public init(_ code: Code = .invalidParameter, parameter: String, message: String) {
        self.code = code
        self.parameter = parameter
        self.message = message
    }

    public var description: String { message }
}
