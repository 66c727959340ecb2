#include "agent/tools/builtin/calculatortool.h"

#include <QJsonArray>

#include <muParser.h>

#include <cmath>
#include <numbers>

using namespace Qt::StringLiterals;

namespace Loopscope {

ToolSchema CalculatorTool::schema() const
{
    const QJsonObject expression{
        {u"type"_s, u"string"_s},
        {u"description"_s, u"The expression, e.g. \"2*(3+4)\" or \"sqrt(2)^2 + sin(_pi/6)\"."_s},
    };
    return {
        Name,
        u"Evaluates one arithmetic expression exactly and returns its value. Use it instead of "
        "doing arithmetic in your head. Operators: + - * / ^ (power), comparisons, && || and "
        "c ? a : b. Functions: sqrt, abs, sign, rint, exp, ln (natural), log10, log2, sin, cos, "
        "tan, asin, acos, atan, atan2, sinh, cosh, tanh, min, max, sum, avg. Constants: pi (also _pi), _e. "
        "Angles are in radians; there are no variables."_s,
        QJsonObject{
            {u"type"_s, u"object"_s},
            {u"properties"_s, QJsonObject{{u"expression"_s, expression}}},
            {u"required"_s, QJsonArray{u"expression"_s}},
            {u"additionalProperties"_s, false},
        }};
}

// Integers print as integers while exactly representable; anything else with
// 15 significant digits, so that 0.1+0.2 reads 0.3 rather than 0.30000000000000004.
static QString formatNumber(double value)
{
    // Also turns -0 into 0.
    if (value == 0)
        return u"0"_s;
    constexpr double exactIntegerLimit = 9007199254740992.0; // 2^53
    if (std::abs(value) < exactIntegerLimit && std::trunc(value) == value)
        return QString::number(static_cast<qint64>(value));
    return QString::number(value, 'g', 15);
}

// What a message quotes of the model's input: all of a usual expression, a bounded excerpt of a huge
// one, or every error would send the whole input back and the next request would carry it twice.
static QString excerpt(const QString &text)
{
    constexpr qsizetype MaxQuoted = 200;
    if (text.size() <= MaxQuoted)
        return text;
    return u"%1…%2 (%3 characters)"_s.arg(text.first(MaxQuoted / 2), text.last(MaxQuoted / 4))
        .arg(text.size());
}

ToolResult CalculatorTool::invoke(const QJsonObject &arguments, ToolContext &) const
{
    const QString expression = arguments.value(u"expression"_s).toString().trimmed();
    if (expression.isEmpty())
        return ToolResult::failure(u"The expression is empty; pass one such as \"2*(3+4)\"."_s);

    double value = 0;
    try {
        mu::Parser parser;
        // Built with GCC, muparser's _pi is only 3.141592653589 (traded for speed),
        // so sin(_pi) would be 8e-13; a calculator should be exact to the last digit.
        parser.DefineConst("_pi", std::numbers::pi);
        parser.DefineConst("pi", std::numbers::pi); // what models tend to write
        parser.DefineConst("_e", std::numbers::e);
        parser.SetExpr(expression.toStdString());
        int resultCount = 0;
        const double *results = parser.Eval(resultCount);
        // muparser evaluates "1, 2" to two results; a model asking that is confused
        // about the syntax, and silently answering only the last would mislead it.
        if (resultCount != 1) {
            return ToolResult::failure(u"'%1' holds %2 comma-separated expressions; evaluate one at a time "
                                       "(commas only separate function arguments, e.g. max(1, 2))."_s.arg(
                                           excerpt(expression), QString::number(resultCount)));
        }
        value = results[0];
    } catch (const mu::Parser::exception_type &error) {
        const QString message = excerpt(QString::fromStdString(error.GetMsg()));
        // Most muparser messages already name the position; the rest get it appended.
        const bool hasPosition = error.GetPos() >= 0 && !message.contains(u"position"_s);
        return ToolResult::failure(u"Cannot evaluate '%1': %2%3"_s.arg(
            excerpt(expression), message,
            hasPosition ? u" (at position %1)"_s.arg(error.GetPos()) : QString()));
    }

    if (!std::isfinite(value)) {
        return ToolResult::failure(
            u"'%1' has no finite value (it evaluates to %2): check for a division by zero, an "
            "overflow, or a function outside its domain such as sqrt(-1)."_s.arg(
                excerpt(expression), std::isnan(value) ? u"NaN"_s : u"infinity"_s));
    }
    return ToolResult::success(u"%1 = %2"_s.arg(excerpt(expression), formatNumber(value)));
}

} // namespace Loopscope
