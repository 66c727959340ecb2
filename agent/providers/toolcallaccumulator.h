#pragma once

#include "agent/conversation/message.h"

#include <QMap>

namespace Loopscope {

/*!
    Assembles tool calls from streamed fragments keyed by an index: the first
    fragment names the call, later ones append argument text. Calls that came
    without an id (or with an empty one) get a unique synthetic id, because
    the history must pair every result with its call.
*/
class ToolCallAccumulator final
{
public:
    // Returns true when this fragment opened a new call.
    bool add(int index, const QString &id, const QString &name, const QString &argumentsFragment);
    void setArguments(int index, const QString &arguments);
    void setProviderData(int index, const QJsonObject &data);

    bool isEmpty() const { return m_calls.isEmpty(); }
    QList<ToolCall> calls() const;

    static QString syntheticId();

private:
    QMap<int, ToolCall> m_calls;
};

QString joinUrl(const QUrl &base, const QString &path);

} // namespace Loopscope
