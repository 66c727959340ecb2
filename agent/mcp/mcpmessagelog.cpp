#include "agent/mcp/mcpmessagelog.h"

#include "agent/mcp/mcpclient.h"

#include <QJsonDocument>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

// Enough of a message to show and search; the whole message stays in Entry::message.
constexpr qsizetype SearchableChars = 64 * 1024;

QString idText(const QJsonValue &id)
{
    if (id.isString())
        return id.toString();
    if (id.isDouble())
        return QString::number(id.toInteger());
    return {};
}

QString openKey(const QString &server, bool requestOutgoing, const QString &id)
{
    return server + (requestOutgoing ? u"\n>"_s : u"\n<"_s) + id;
}

} // namespace

McpMessageLog::McpMessageLog(QObject *parent)
    : QAbstractTableModel(parent)
{}

McpMessageLog::~McpMessageLog() = default;

void McpMessageLog::watch(McpClient *client)
{
    if (!client)
        return;
    m_watched.removeAll(nullptr);
    if (m_watched.contains(client))
        return;
    m_watched.append(client);
    const QString server = client->config().name;
    connect(client, &McpClient::messageLogged, this,
            [this, server](bool outgoing, const QJsonObject &message) { append(server, outgoing, message); });
}

void McpMessageLog::append(const QString &server, bool outgoing, const QJsonObject &message,
                           const QDateTime &time)
{
    Entry entry;
    entry.time = time;
    entry.server = server;
    entry.outgoing = outgoing;
    entry.message = message;
    const QByteArray compact = QJsonDocument(message).toJson(QJsonDocument::Compact);
    entry.bytes = compact.size();
    entry.compact = QString::fromUtf8(compact.left(SearchableChars));
    entry.id = idText(message.value("id"_L1));
    entry.method = message.value("method"_L1).toString();
    if (!entry.method.isEmpty()) {
        entry.kind = entry.id.isEmpty() ? u"notification"_s : u"request"_s;
        if (!entry.id.isEmpty()) {
            if (m_open.size() >= m_maxMessages)
                m_open.clear(); // requests never answered must not pile up
            m_open.insert(openKey(server, outgoing, entry.id), {time, entry.method});
        }
    } else {
        entry.kind = message.contains("error"_L1) ? u"error"_s : u"response"_s;
        if (const auto it = m_open.constFind(openKey(server, !outgoing, entry.id)); it != m_open.cend()) {
            entry.method = it->method;
            entry.roundTripMs = it->time.msecsTo(time);
            m_open.erase(it);
        }
    }

    trim(1, qMin(entry.bytes, m_maxBytes));
    const int row = int(m_entries.size());
    beginInsertRows({}, row, row);
    m_bytes += entry.bytes;
    m_entries.push_back(std::move(entry));
    endInsertRows();
}

void McpMessageLog::trim(int incomingMessages, qint64 incomingBytes)
{
    int drop = 0;
    qint64 bytes = m_bytes + incomingBytes;
    const int count = int(m_entries.size());
    while (drop < count && (count - drop + incomingMessages > m_maxMessages || bytes > m_maxBytes)) {
        bytes -= m_entries.at(drop).bytes;
        ++drop;
    }
    if (drop == 0)
        return;
    beginRemoveRows({}, 0, drop - 1);
    for (int i = 0; i < drop; ++i) {
        m_bytes -= m_entries.front().bytes;
        m_entries.pop_front();
    }
    endRemoveRows();
}

void McpMessageLog::clear()
{
    beginResetModel();
    m_entries.clear();
    m_open.clear();
    m_bytes = 0;
    endResetModel();
}

void McpMessageLog::setMaxMessages(int count)
{
    m_maxMessages = qMax(1, count);
    trim(0, 0);
}

void McpMessageLog::setMaxBytes(qint64 bytes)
{
    m_maxBytes = qMax<qint64>(1, bytes);
    trim(0, 0);
}

QString McpMessageLog::directionText(bool outgoing)
{
    return outgoing ? u"→"_s : u"←"_s;
}

QByteArray McpMessageLog::jsonLine(const Entry &entry)
{
    QJsonObject line{{u"time"_s, entry.time.toString(Qt::ISODateWithMs)},
                     {u"server"_s, entry.server},
                     {u"direction"_s, entry.outgoing ? u"sent"_s : u"received"_s},
                     {u"bytes"_s, entry.bytes},
                     {u"message"_s, entry.message}};
    if (entry.roundTripMs)
        line.insert(u"roundTripMs"_s, *entry.roundTripMs);
    return QJsonDocument(line).toJson(QJsonDocument::Compact);
}

int McpMessageLog::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int McpMessageLog::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant McpMessageLog::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Entry &e = m_entries.at(index.row());
    switch (role) {
    case MessageRole: return e.message;
    case OutgoingRole: return e.outgoing;
    case MethodRole: return e.method;
    case JsonLineRole: return QString::fromUtf8(jsonLine(e));
    case SearchTextRole: return e.compact;
    case Qt::ToolTipRole:
        if (index.column() == DirectionColumn)
            return e.outgoing ? tr("Sent to the server") : tr("Received from the server");
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == SizeColumn || index.column() == RoundTripColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::DisplayRole: break;
    default: return {};
    }
    switch (Column(index.column())) {
    case TimeColumn: return e.time.toLocalTime().toString(u"HH:mm:ss.zzz"_s);
    case ServerColumn: return e.server;
    case DirectionColumn: return directionText(e.outgoing);
    case MethodColumn:
        return e.kind == "request"_L1 || e.kind == "notification"_L1 ? e.method
                                                                     : tr("%1 (%2)").arg(e.method, e.kind);
    case IdColumn: return e.id;
    case SizeColumn: return QLocale().formattedDataSize(e.bytes, 1, QLocale::DataSizeTraditionalFormat);
    case RoundTripColumn: return e.roundTripMs ? tr("%1 ms").arg(*e.roundTripMs) : QString();
    case MessageColumn: return e.compact.left(300);
    case ColumnCount: break;
    }
    return {};
}

QVariant McpMessageLog::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case TimeColumn: return tr("Time");
    case ServerColumn: return tr("Server");
    case DirectionColumn: return tr("Way");
    case MethodColumn: return tr("Method");
    case IdColumn: return tr("Id");
    case SizeColumn: return tr("Size");
    case RoundTripColumn: return tr("Round trip");
    case MessageColumn: return tr("Message");
    case ColumnCount: break;
    }
    return {};
}

} // namespace Loopscope
