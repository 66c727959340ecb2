#pragma once

#include <QString>
#include <QStringView>

#include <cstddef>
#include <optional>

namespace Loopscope {

/*!
    One enumerator and the name it has in files and on the wire. Each enum
    keeps its names in one constexpr table of these, read both ways by
    nameOf() and valueNamed(), so a name cannot be written one way and read
    another. The names are a format: they differ from the enumerators'
    spelling ("tool_call" for ToolCall) and must never change.
*/
template<typename Enum>
struct EnumName
{
    Enum value;
    QStringView name;
};

// The name of \a value; empty if the table lacks it.
template<typename Enum, std::size_t Count>
QString nameOf(const EnumName<Enum> (&names)[Count], Enum value)
{
    for (const EnumName<Enum> &entry : names) {
        if (entry.value == value)
            return entry.name.toString();
    }
    return {};
}

// The enumerator called exactly \a name; nullopt for any other text.
template<typename Enum, std::size_t Count>
std::optional<Enum> valueNamed(const EnumName<Enum> (&names)[Count], QStringView name)
{
    for (const EnumName<Enum> &entry : names) {
        if (entry.name == name)
            return entry.value;
    }
    return std::nullopt;
}

} // namespace Loopscope
