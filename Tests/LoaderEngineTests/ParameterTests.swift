import Testing
@testable import LoaderEngine

struct ParameterTests {
    func error(_ loader: String, _ query: String) -> ParameterError? {
        do {
            _ = try FrameQuery(LoaderCatalog.standard[loader]!, items: queryItems(query)).frame()
            return nil
        } catch {
            return error
        }
    }

    /// Values each kind of parameter must refuse.
    func badValues(_ kind: ParameterKind) -> [String] {
        switch kind {
        case let .number(min, max, exclusive):
            var values = ["", "abc", "nan", "inf", "-inf", "1e999", "0x10", "1,2", " 1", "1e", "--1", "\(max * 2 + 1)"]
            values.append(exclusive ? format(min) : format(min - 1))
            return values
        case let .integer(min, max):
            return ["", "2.5", "1e1", "three", "\(min - 1)", "\(max + 1)", "99999999999999999999"]
        case .color:
            return ["", "#12", "12345", "#GGGGGG", "#1234567", "red", "##fff"]
        case .colorOrNone:
            return ["", "#12", "12345", "#GGGGGG", "red", "##fff", "None", "NONE", "transparent", "#none"]
        case .choice:
            return ["", "fast", "REDUCED"]
        }
    }

    @Test func everyParameterRefusesBadValuesNamingItself() {
        for definition in LoaderCatalog.standard.loaders {
            for spec in definition.parameters {
                for bad in badValues(spec.kind) {
                    let encoded = bad.replacingPercentAndHash()
                    let e = error(definition.name, "\(spec.name)=\(encoded)")
                    #expect(e?.code == .invalidParameter, "\(definition.name) \(spec.name)=\(bad)")
                    #expect(e?.parameter == spec.name)
                    #expect(e?.message == "\(spec.name) must be \(spec.acceptedForm)")
                }
            }
        }
    }

    @Test func everyParameterAcceptsItsDefaultAndBounds() throws {
        for definition in LoaderCatalog.standard.loaders {
            for spec in definition.parameters {
                var values = [spec.defaultValue.description.replacingPercentAndHash()]
                switch spec.kind {
                case let .number(min, max, exclusive): values += [exclusive ? format(min + 0.001) : format(min), format(max)]
                case let .integer(min, max): values += ["\(min)", "\(max)"]
                case .color: values += ["%23abc", "ABC", "a0B1c2", "%23A0B1C2"]
                case .colorOrNone: values += ["%23abc", "ABC", "a0B1c2", "%23A0B1C2", "none"]
                case let .choice(words): values += words
                }
                for v in values {
                    #expect(error(definition.name, "\(spec.name)=\(v)") == nil, "\(definition.name) \(spec.name)=\(v)")
                }
            }
        }
    }

    @Test func coloursAreAnsweredAsUppercaseSixDigits() throws {
        #expect(try frame("typing", "color=%230f0").elements[0].color.description == "#00FF00")
        #expect(try frame("typing", "color=a0b1c2").elements[0].color.description == "#A0B1C2")
        #expect(RGBColor(parsing: "#FfF")?.rgb == 0xFFFFFF)
    }

    @Test func unknownNamesAreRefusedWithTheAcceptedList() {
        let e = error("typing", "progress=1")
        #expect(e?.code == .unknownParameter && e?.parameter == "progress")
        #expect(e?.message.contains("accepted: count, dotSize") == true)
        #expect(error("switch", "finish=1")?.code == .unknownParameter)
        #expect(error("web", "count=3")?.code == .unknownParameter)
        #expect(error("web", "T=1")?.code == .unknownParameter)
    }

    @Test func repeatedNamesAreRefused() {
        #expect(error("typing", "t=1&t=2")?.message == "t is given more than once")
        #expect(error("typing", "count=1&count=2")?.parameter == "count")
    }

    @Test func timesMustBeFiniteAndInRange() {
        for name in ["t", "stop"] {
            for bad in ["-1", "1e10", "inf", "nan", "x", ""] {
                let e = error("typing", "\(name)=\(bad)")
                #expect(e?.parameter == name, "\(name)=\(bad)")
                #expect(e?.message == "\(name) must be a finite number >= 0 and <= 1e9")
            }
        }
        #expect(error("typing", "t=1e9") == nil)
        #expect(error("typing", "t=0") == nil)
        #expect(error("web", "finish=-0.5")?.parameter == "finish")
    }

    @Test func progressListsAreCheckedWhole() {
        for bad in ["1,,2", "1,x", ",", "1,-2", "0.5,inf", "1;2"] {
            #expect(error("web", "progress=\(bad)")?.parameter == "progress", "progress=\(bad)")
        }
        let many = (0..<10_001).map { "\($0)" }.joined(separator: ",")
        #expect(error("web", "progress=\(many)")?.message == "progress takes at most 10000 times")
        let most = (0..<10_000).map { "\($0)" }.joined(separator: ",")
        #expect(error("web", "progress=\(most)") == nil)
        #expect(error("web", "progress=") == nil)
    }

    @Test func decimalGrammar() {
        for good in ["0", "1", "-1", "+1", "1.5", ".5", "5.", "1e3", "1E-3", "2.5e+2"] {
            #expect(parseDecimal(good) != nil, "\(good)")
        }
        for bad in ["", "-", ".", "e1", "1e", "1e+", "1.2.3", "1e2e3", "0x1p3", "infinity", "1 ", "1-2"] {
            #expect(parseDecimal(bad) == nil, "\(bad)")
        }
    }

    /// Short decimals take an exact fast path; it must give strtod's double,
    /// bit for bit, and hand everything else to it.
    @Test func decimalsReadAsStrtodReadsThem() {
        var texts = ["0", "-0", "0.0005", "1.50", "0.1", "0.3", "123456789012345", "1234567890123456", "9007199254740993",
                     "1e22", "1e23", "1e-22", "1e-23", "4.35", "1.7976931348623157e308", "5e-324", "0.000000000000000000000000001",
                     "00012.5000", "+3.25", "-7.125e1", "2.2250738585072014e-308", "1e10000", "1e-10000", "12345.678901234567"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let digits = String(UInt64.random(in: 0...999_999_999_999_999_999, using: &generator))
            let point = Int.random(in: 0...digits.count, using: &generator)
            var text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -30...30, using: &generator))" }
            texts.append(text)
        }
        for text in texts {
            #expect(parseDecimal(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }
}

extension String {
    /// Percent-encodes what a query value cannot carry as is.
    func replacingPercentAndHash() -> String {
        var out = ""
        for c in self {
            switch c {
            case "#": out += "%23"
            case "%": out += "%25"
            case "&": out += "%26"
            case " ": out += "%20"
            case "+": out += "%2B"
            default: out.append(c)
            }
        }
        return out
    }
}
