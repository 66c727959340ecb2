#pragma once

#include "agent/model/modelrequest.h"

#include <QJsonObject>
#include <QList>

#include <memory>

namespace Loopscope {

/*!
    A model call's request as the trace keeps it. A tool loop resends its whole history with every
    call: kept whole per call, a turn of K calls would hold the history K times over. A request
    recorded after() the call before it holds only the messages it added, and shares that call's
    record; whole() rebuilds the request for whoever shows, resends or exports it. Immutable and
    shared, so copying one is cheap and any thread may read it.
*/
class RecordedRequest final
{
public:
    RecordedRequest() = default;
    // A whole request, recorded as it is. Implicit: a request is the record of itself.
    RecordedRequest(ModelRequest request); // NOLINT(google-explicit-constructor)

    // \a request, which \a previous (sent as \a previousRequest) was made just before, recorded as
    // what it adds to it: the messages after those they share at the start. Whole when they share
    // none.
    static RecordedRequest after(const RecordedRequest &previous, const ModelRequest &previousRequest,
                                 const ModelRequest &request);
    // \a request, which the caller knows begins with all of \a previous's messages (a tool loop's
    // next call, its history only grown), recorded as what it adds: nothing is compared.
    static RecordedRequest extending(const RecordedRequest &previous, const ModelRequest &request);
    // The first \a kept messages of \a base, then \a rest's messages, with \a rest's tools, choice
    // and options: a delta read back from a file. \a kept must not exceed base's messageCount().
    static RecordedRequest delta(const RecordedRequest &base, qsizetype kept, ModelRequest rest);

    ModelRequest whole() const;
    qsizetype messageCount() const;
    const QList<ToolSchema> &tools() const;
    ToolChoice toolChoice() const;
    const ModelOptions &options() const;

    // The delta, for a writer that stores one: whether this is recorded as a delta of \a base
    // (the very record, not an equal one), how many of its messages come first, and those after.
    bool isDeltaOf(const RecordedRequest &base) const;
    qsizetype keptMessages() const;
    const QList<Message> &addedMessages() const;

    bool operator==(const RecordedRequest &other) const;
    bool operator==(const ModelRequest &other) const { return whole() == other; }

    QJsonObject toJson() const { return whole().toJson(); }
    static RecordedRequest fromJson(const QJsonObject &json) { return ModelRequest::fromJson(json); }

private:
    struct Link;
    static RecordedRequest keeping(const RecordedRequest &previous, qsizetype kept,
                                   const ModelRequest &request);
    static std::shared_ptr<const Link> makeLink(Link link);
    const Link &link() const;

    std::shared_ptr<const Link> m_link; // null: the empty request
};

} // namespace Loopscope
