#include "agent/eval/junitreport.h"

#include <QXmlStreamWriter>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// XML 1.0 has no escape for most control characters, and a lone surrogate is not text at all.
QString xmlSafe(const QString &text)
{
    QString safe;
    safe.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c.isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            safe.append(c);
            safe.append(text.at(++i));
        } else if (c.isSurrogate() || (c.unicode() < 0x20 && c != u'\t' && c != u'\n' && c != u'\r')
                   || c.unicode() == 0xFFFE || c.unicode() == 0xFFFF) {
            safe.append(QChar::ReplacementCharacter);
        } else {
            safe.append(c);
        }
    }
    return safe;
}

QString seconds(qint64 ms)
{
    return QString::number(double(ms) / 1000.0, 'f', 3);
}

QString systemOut(const EvalCaseResult &result)
{
    QString text = EvalCaseResult::tr("outcome: %1, iterations: %2\n")
                       .arg(result.observation.outcome)
                       .arg(result.observation.iterations);
    if (!result.observation.error.isEmpty())
        text += EvalCaseResult::tr("error: %1\n").arg(result.observation.error);
    text += EvalCaseResult::tr("answer:\n%1\n").arg(result.observation.answer);
    const QString calls = result.observation.toolCallsText();
    text += EvalCaseResult::tr("tool calls:\n%1\n")
                .arg(calls.isEmpty() ? EvalCaseResult::tr("(none)") : calls);
    if (!result.savedSession.isEmpty())
        text += EvalCaseResult::tr("session: %1\n").arg(result.savedSession);
    return text;
}

} // namespace

QByteArray JUnitReport::toXml(const QString &suiteName, const QList<EvalCaseResult> &results,
                              qint64 durationMs)
{
    const EvalSummary summary = EvalSummary::of(results);
    QByteArray bytes;
    QXmlStreamWriter xml(&bytes);
    xml.setAutoFormatting(true);
    xml.writeStartDocument();
    const auto counts = [&] {
        xml.writeAttribute(u"tests"_s, QString::number(summary.cases));
        xml.writeAttribute(u"failures"_s, QString::number(summary.failed));
        xml.writeAttribute(u"errors"_s, QString::number(summary.errors));
        xml.writeAttribute(u"skipped"_s, QString::number(summary.skipped));
        xml.writeAttribute(u"time"_s, seconds(durationMs));
    };
    xml.writeStartElement(u"testsuites"_s);
    xml.writeAttribute(u"name"_s, u"loopscope eval"_s);
    counts();
    xml.writeStartElement(u"testsuite"_s);
    xml.writeAttribute(u"name"_s, xmlSafe(suiteName));
    counts();
    for (const EvalCaseResult &result : results) {
        xml.writeStartElement(u"testcase"_s);
        xml.writeAttribute(u"name"_s, xmlSafe(result.name));
        xml.writeAttribute(u"classname"_s, xmlSafe(suiteName));
        xml.writeAttribute(u"time"_s, seconds(result.durationMs));
        // What went wrong: every message in the text, the first as the element's message.
        const auto writeOutcome = [&](const QString &element, const QString &type) {
            xml.writeStartElement(element);
            xml.writeAttribute(u"message"_s, xmlSafe(result.firstMessage()));
            if (!type.isEmpty()) {
                xml.writeAttribute(u"type"_s, type);
                xml.writeCharacters(xmlSafe(result.messages.join(u'\n')));
            }
            xml.writeEndElement();
        };
        switch (result.status) {
        case EvalCaseResult::Status::Passed: break;
        case EvalCaseResult::Status::Failed: writeOutcome(u"failure"_s, u"expectation"_s); break;
        case EvalCaseResult::Status::Error: writeOutcome(u"error"_s, u"error"_s); break;
        case EvalCaseResult::Status::Skipped: writeOutcome(u"skipped"_s, {}); break;
        }
        xml.writeTextElement(u"system-out"_s, xmlSafe(systemOut(result)));
        xml.writeEndElement();
    }
    xml.writeEndElement();
    xml.writeEndElement();
    xml.writeEndDocument();
    return bytes;
}

} // namespace Loopscope
