#include "agent/providers/recordedbody.h"

#include "agent/providers/providerfactory.h"

using namespace Qt::StringLiterals;

namespace Loopscope::RecordedBody {

QJsonValue rebuild(const QString &provider, const ModelRequest &request)
{
    const std::optional<ProviderKind> kind = providerKindFromName(provider);
    if (!kind)
        return {};
    // The endpoint adds nothing to the body but a default output limit, the one every client uses.
    return createProviderProtocol(*kind)->encode(request, ProviderEndpoint{defaultBaseUrl(*kind)}).body;
}

QJsonObject withBody(const QJsonObject &attemptRequest, const QString &provider,
                     const QJsonObject &callRequest)
{
    if (attemptRequest.contains(u"body"_s) || attemptRequest.value(key).toString() != fromRequest)
        return attemptRequest;
    const QJsonValue body = rebuild(provider, ModelRequest::fromJson(callRequest));
    if (body.isUndefined())
        return attemptRequest;
    // The marker stays beside the body: it says the body was rebuilt, not read from the record.
    QJsonObject whole = attemptRequest;
    whole.insert(u"body"_s, body);
    return whole;
}

} // namespace Loopscope::RecordedBody
