#pragma once

#include "agent/model/modelrequest.h"

#include <QObject>

namespace Loopscope {

/*!
    The asynchronous boundary to a model. The agent hands over a request and
    listens; a client speaks one wire protocol (or, in tests, follows a script).
    A client serves one request at a time; send() while busy is a programming
    error. After cancel() the client emits nothing more for that request.
*/
class ModelClient : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;

    virtual void send(const ModelRequest &request) = 0;
    virtual void cancel() = 0;

    // For the trace and the status bar, e.g. "openai", "anthropic", "scripted".
    virtual QString providerName() const = 0;

signals:
    void textDelta(const QString &text);
    void toolCallDelta(const Loopscope::ToolCallDelta &delta);
    void attemptFinished(const Loopscope::ModelAttempt &attempt);
    void finished(const Loopscope::ModelResponse &response);
    void failed(const Loopscope::ModelError &error);
};

} // namespace Loopscope
