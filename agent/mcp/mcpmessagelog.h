#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QPointer>

#include <deque>
#include <optional>

namespace Loopscope {

class McpClient;

/*!
    The JSON-RPC messages exchanged with MCP servers, both ways, as a table
    for a person inspecting a server: when, which server, which way, the
    method (a response names its request's method), the id, the size on the
    wire and, for a response, the round trip since its request. It holds
    only JSON-RPC bodies (never a transport's headers or a process's
    environment, so no credential reaches it) and keeps the newest
    maxMessages() within maxBytes(), dropping the oldest. Fed by watch()
    (McpClient::messageLogged) or append(); empty and idle until then.
*/
class McpMessageLog final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        TimeColumn,
        ServerColumn,
        DirectionColumn,
        MethodColumn,
        IdColumn,
        SizeColumn,
        RoundTripColumn,
        MessageColumn,
        ColumnCount
    };
    enum Role {
        MessageRole = Qt::UserRole + 1, // the message as a QJsonObject
        OutgoingRole,                   // bool: sent by Loopscope
        MethodRole,                     // the method, or for a response its request's method
        JsonLineRole,   // one line of JSON: time, server, direction, size, round trip, message
        SearchTextRole, // the compact message (at most the first 64 KB), for a text filter
    };

    struct Entry
    {
        QDateTime time;
        QString server;
        bool outgoing = false;
        QString method;
        QString id;   // empty for a notification
        QString kind; // "request" | "notification" | "response" | "error"
        qint64 bytes = 0;
        std::optional<qint64> roundTripMs;
        QJsonObject message;
        QString compact; // bounded, for display and filtering
    };

    explicit McpMessageLog(QObject *parent = nullptr);
    ~McpMessageLog() override;

    // Records every message \a client sends or receives from now on, under its server's name.
    void watch(McpClient *client);
    void append(const QString &server, bool outgoing, const QJsonObject &message,
                const QDateTime &time = QDateTime::currentDateTimeUtc());
    void clear();

    void setMaxMessages(int count);
    int maxMessages() const { return m_maxMessages; }
    void setMaxBytes(qint64 bytes);
    qint64 maxBytes() const { return m_maxBytes; }

    const Entry &entry(int row) const { return m_entries.at(row); }
    // "→" sent, "←" received; for copying and the view.
    static QString directionText(bool outgoing);
    static QByteArray jsonLine(const Entry &entry);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    // Drops the oldest messages until the newest, with what is about to come, fit both bounds.
    void trim(int incomingMessages, qint64 incomingBytes);

    std::deque<Entry> m_entries;
    qint64 m_bytes = 0;
    int m_maxMessages = 5000;
    qint64 m_maxBytes = 64LL * 1024 * 1024;
    struct Sent
    {
        QDateTime time;
        QString method;
    };
    // Requests waiting for their response, by server, direction and id.
    QHash<QString, Sent> m_open;
    QList<QPointer<McpClient>> m_watched;
};

} // namespace Loopscope
