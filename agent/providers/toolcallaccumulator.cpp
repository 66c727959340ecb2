#include "agent/providers/toolcallaccumulator.h"

#include <QRandomGenerator>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace Loopscope {

bool ToolCallAccumulator::add(int index, const QString &id, const QString &name,
                              const QString &argumentsFragment)
{
    const bool opened = !m_calls.contains(index);
    ToolCall &call = m_calls[index];
    // Some servers repeat the id and name on every fragment; keep the first.
    if (call.id.isEmpty() && !id.isEmpty())
        call.id = id;
    if (call.name.isEmpty() && !name.isEmpty())
        call.name = name;
    call.arguments += argumentsFragment;
    return opened;
}

void ToolCallAccumulator::setArguments(int index, const QString &arguments)
{
    m_calls[index].arguments = arguments;
}

void ToolCallAccumulator::setProviderData(int index, const QJsonObject &data)
{
    m_calls[index].providerData = data;
}

QList<ToolCall> ToolCallAccumulator::calls() const
{
    QList<ToolCall> result;
    result.reserve(m_calls.size());
    for (ToolCall call : m_calls) {
        if (call.id.isEmpty())
            call.id = syntheticId();
        result.append(call);
    }
    return result;
}

QString ToolCallAccumulator::syntheticId()
{
    // Nine alphanumerics satisfy even Mistral's id rule.
    static constexpr char16_t alphabet[] = u"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    QString id;
    id.reserve(9);
    for (int i = 0; i < 9; ++i)
        id.append(QChar(alphabet[QRandomGenerator::global()->bounded(62)]));
    return id;
}

QString joinUrl(const QUrl &base, const QString &path)
{
    QString text = base.toString(QUrl::StripTrailingSlash);
    while (text.endsWith(u'/'))
        text.chop(1);
    return text + path;
}

} // namespace Loopscope
