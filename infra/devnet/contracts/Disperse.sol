// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// One transaction paying many wallets, with the functions and selectors of the widely used
/// Disperse contract (disperse.app): ether split by value, a token pulled from the sender and sent on.
contract Disperse {
    function disperseEther(address[] calldata recipients, uint256[] calldata values) external payable {
        for (uint256 i = 0; i < recipients.length; i++) payable(recipients[i]).transfer(values[i]);
        uint256 left = address(this).balance;
        if (left > 0) payable(msg.sender).transfer(left);
    }

    function disperseToken(IERC20 token, address[] calldata recipients, uint256[] calldata values) external {
        uint256 total = 0;
        for (uint256 i = 0; i < recipients.length; i++) total += values[i];
        require(token.transferFrom(msg.sender, address(this), total), "pull failed");
        for (uint256 i = 0; i < recipients.length; i++) require(token.transfer(recipients[i], values[i]), "send failed");
    }
}
