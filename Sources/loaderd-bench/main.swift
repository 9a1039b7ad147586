// Benchmarks print figures; they assert nothing. Build in release:
//   swift run -c release loaderd-bench engine

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first ?? "engine" {
case "engine":
    EngineBenchmark.run(arguments: Array(arguments.dropFirst()))
case "service":
    ServiceBenchmark.run(arguments: Array(arguments.dropFirst()))
case "answers":
    AnswerBenchmark.run(arguments: Array(arguments.dropFirst()))
case "wire":
    WireBenchmark.run(arguments: Array(arguments.dropFirst()))
case "svg":
    SVGReport.run()
case "definitions":
    DefinitionBenchmark.run(arguments: Array(arguments.dropFirst()))
case "pictures":
    Pictures.run(arguments: Array(arguments.dropFirst()))
case "zlib":
    ZlibFilter.run()
default:
    print("usage: loaderd-bench engine [--iterations N] | service [--iterations N] | answers [--iterations N] | wire [--iterations N] | svg | definitions | pictures [directory] | zlib < in > out")
}
